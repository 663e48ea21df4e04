import { Worker } from 'node:worker_threads';

/**
 * Ends the process after `ms` even if its main thread never returns to the event loop (a timer
 * there would never fire): a worker thread has a loop of its own. SIGKILL skips cleanup, so this
 * is only the last resort behind the graceful shutdown.
 */
export function killAfter(ms: number): void {
  const source = `
    const { workerData } = require('node:worker_threads');
    setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);
  `;
  // No inherited --import tsx (a slow start would eat into `ms`); a worker that cannot start must not
  // crash the shutdown it guards.
  const worker = new Worker(source, { eval: true, execArgv: [], workerData: { pid: process.pid, ms } });
  worker.on('error', () => undefined);
  worker.unref();
}
