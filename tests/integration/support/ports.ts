import { createServer } from 'node:net';

/**
 * A port nobody listens on, from the system. A random pick may be in use (another test file's
 * server, or an outgoing connection's ephemeral port).
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
