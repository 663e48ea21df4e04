import type { Config } from '../config';
import type { FailpointName } from './faults';

const hits = new WeakMap<Config['failpoints'], Map<FailpointName, number>>();

/**
 * A point where FAILPOINTS may make this process fail on purpose (never in production): `exit`
 * ends it at once with SIGKILL (exit code 137, as `kill -9`: nothing is flushed or closed),
 * `error` throws, `delay(ms)` waits. Only the configured hit acts (the first by default).
 */
export async function failpoint(
  ctx: { config: Pick<Config, 'failpoints'>; log: { error(obj: object, msg: string): void } },
  name: FailpointName,
): Promise<void> {
  const point = ctx.config.failpoints[name];
  if (!point) return;
  const counts = hits.get(ctx.config.failpoints) ?? new Map<FailpointName, number>();
  hits.set(ctx.config.failpoints, counts);
  const n = (counts.get(name) ?? 0) + 1;
  counts.set(name, n);
  if (n !== point.hit) return;
  switch (point.action.kind) {
    case 'exit':
      ctx.log.error({ failpoint: name, hit: n }, 'failpoint: ending the process (SIGKILL)');
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
      return;
    case 'error':
      throw new Error(`failpoint ${name} (hit ${n})`);
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, (point.action as { ms: number }).ms));
  }
}
