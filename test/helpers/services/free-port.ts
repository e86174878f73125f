// Finds a free TCP port on loopback by letting the kernel pick one.
import { createServer } from 'node:net';

/** Asks the kernel for a free port on 127.0.0.1 and releases it at once (a tiny race the callers retry). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
