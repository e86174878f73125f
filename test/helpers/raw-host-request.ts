// One HTTP/1.1 request to a loopback server with a Host header of our choosing (fetch does not let a test set
// Host), for tests of what the service does with a spoofed or DNS-rebinding Host.
import { request as httpRequest } from 'node:http';
import { isLoopbackHost } from './standins/loopback';

/** Sends to `base` (a loopback URL) with `host` in the Host header; resolves with status and body text. */
export function requestWithHost(
  base: string,
  path: string,
  init: { host: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  const target = new URL(base);
  if (!isLoopbackHost(target.hostname)) throw new Error(`refusing to connect to non-loopback ${target.hostname}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path,
        method: init.method ?? 'GET',
        headers: { ...init.headers, host: init.host },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
