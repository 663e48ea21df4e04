import { Writable } from 'node:stream';

/** Past this much unwritten log output, lines are dropped (and counted) instead of held in memory. */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/**
 * The server's log lines on stdout, written so that the output can never stall or hang the process.
 *
 * pino's default destination (sonic-boom) flushes synchronously when the process exits and, when the
 * reader is gone (EPIPE) or the terminal closed (EIO), retries that write every 100 ms for ever: a
 * server whose supervisor had exited never finished exiting. process.stdout writes a pipe without
 * blocking and Node drops what is still unwritten at exit; once the output breaks, logging stops.
 */
export function stdoutLog(out: NodeJS.WriteStream = process.stdout, maxPending = MAX_PENDING_BYTES): Writable {
  let broken = false;
  let dropped = 0;
  out.on('error', () => {
    broken = true;
  });
  return new Writable({
    decodeStrings: false,
    write(line: string | Buffer, _encoding, done) {
      if (broken) return done();
      if (out.writableLength > maxPending) {
        dropped++;
        return done();
      }
      if (dropped) {
        const msg = `${dropped} log lines were dropped: the output was not being read`;
        out.write(`${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg })}\n`);
        dropped = 0;
      }
      out.write(line);
      done();
    },
  });
}
