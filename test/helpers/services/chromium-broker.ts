// One Chromium for the whole test run instead of one per browser suite (a launch and a close cost 2 to 4 s each on
// the two CI cores). test/global-setup.ts starts this broker: a loopback HTTP endpoint that launches the browser the
// first time a suite asks for it (a run without browser suites never starts one) and answers with the browser's
// WebSocket address, on which each suite connects (launchLoopbackChromium in ./chromium.ts).
//
// What isolates suites from each other is unchanged: every suite opens its own contexts (a context is a fresh
// profile: cookies, storage, permissions, routes), and closing its connection closes every context it opened.
// The browser itself keeps no state a page can reach across contexts. If the browser dies, the next request
// launches another one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import { loopbackChromiumOptions } from './chromium';

export interface ChromiumBroker {
  /** http://127.0.0.1:<port>; GET /chromium?path=<executable> answers the browser's ws endpoint. */
  url: string;
  close(): Promise<void>;
}

export async function startChromiumBroker(): Promise<ChromiumBroker> {
  const browsers = new Map<string, Promise<BrowserServer>>();

  const browserFor = (executablePath: string): Promise<BrowserServer> => {
    let launched = browsers.get(executablePath);
    if (!launched) {
      // The WebSocket listens on loopback only; its path is random, so only who asked the broker can connect.
      launched = chromium.launchServer({ ...loopbackChromiumOptions(executablePath), host: '127.0.0.1', port: 0 });
      browsers.set(executablePath, launched);
      launched.then(
        (server) => server.on('close', () => browsers.delete(executablePath)),
        () => browsers.delete(executablePath),
      );
    }
    return launched;
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const executablePath = url.searchParams.get('path');
    if (url.pathname !== '/chromium' || !executablePath) {
      res.writeHead(404).end();
      return;
    }
    browserFor(executablePath).then(
      (browser) => res.writeHead(200, { 'content-type': 'text/plain' }).end(browser.wsEndpoint()),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      const launched = await Promise.allSettled(browsers.values());
      await Promise.all(launched.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    },
  };
}
