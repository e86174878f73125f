// Starts a node:http server on 127.0.0.1 on a kernel-chosen port and returns a closer that also drops keep-alives.
import type { Server } from 'node:http';

/** Listens on a free loopback port; resolves with the base URL and an idempotent close(). */
export function listenOnLoopback(server: Server): Promise<{ url: string; port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        close() {
          closing ??= new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}
