import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that must not hold up an answer (a mail whose sending would tell, by its time, that an
 * account exists). It is tracked so that shutdown, and tests, can wait until it has finished.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(what: string, work: () => Promise<void>): void {
    const task: Promise<void> = Promise.resolve()
      .then(work)
      .catch((err: unknown) => this.log.error({ err }, `${what} failed`))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Resolves once everything started so far, and anything that started meanwhile, has finished. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
