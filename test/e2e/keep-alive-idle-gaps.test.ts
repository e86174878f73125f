// A client that reuses a kept-alive connection after a pause must not find it closed mid-request (issue 27,
// "Connections"; functions/node/connection-timeouts.ts). Against the server `npm start` runs (a child process),
// four clients each open one connection, pause 1, 4.5, 5.5 or 65 s, and send a second request: it must go over
// the same socket and succeed. Node's default (5 s) fails the 4.5 s and 5.5 s gaps already: undici reads the
// server's `Keep-Alive: timeout=5` hint and drops its idle socket first, so the second request opens another
// connection, and a client that ignores the hint (a proxy, another runtime) writes into a socket being closed.
//
// Slow on purpose (about 66 s: the gaps run side by side, so the longest one sets the time), so it lives alone
// in this file and vitest runs it beside the other files instead of after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server';

const GAPS_MS = [1_000, 4_500, 5_500, 65_000];

let server: ChildServer;
const dataDir = mkdtempSync(join(tmpdir(), 'tooldir-keepalive-'));
beforeAll(async () => {
  server = await startChildServer({ dataDir, timeoutMs: 120_000 });
}, 150_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Two requests over one client (one connection at most), `gapMs` apart; what the connection did meanwhile. */
async function requestsAfterGap(gapMs: number) {
  // The client keeps idle sockets longer than any gap, so only the server's deadline can end the connection.
  const client = new Client(server.url, { keepAliveTimeout: 120_000, keepAliveMaxTimeout: 120_000, pipelining: 1 });
  let connects = 0;
  const disconnects: string[] = [];
  client.on('connect', () => (connects += 1));
  client.on('disconnect', (_origin, _targets, error) => disconnects.push(error?.message ?? 'closed'));
  try {
    const first = await fetch(`${server.url}/robots.txt`, { dispatcher: client });
    await first.text();
    await sleep(gapMs);
    const second = await fetch(`${server.url}/robots.txt`, { dispatcher: client });
    await second.text();
    return { gapMs, statuses: [first.status, second.status], connects, disconnects: [...disconnects] };
  } finally {
    await client.destroy();
  }
}

describe('kept-alive connections after idle gaps (npm start, real sockets)', () => {
  it('the server advertises how long it keeps an idle connection', async () => {
    const client = new Client(server.url);
    try {
      const res = await fetch(`${server.url}/robots.txt`, { dispatcher: client });
      await res.text();
      expect(res.headers.get('keep-alive')).toBe('timeout=72');
    } finally {
      await client.destroy();
    }
  });

  it(
    'a request after 1, 4.5, 5.5 and 65 s of idle reuses the same connection and succeeds',
    async () => {
      const results = await Promise.all(GAPS_MS.map((gap) => requestsAfterGap(gap)));
      expect(results).toEqual(GAPS_MS.map((gapMs) => ({ gapMs, statuses: [200, 200], connects: 1, disconnects: [] })));
    },
    GAPS_MS.at(-1)! + 60_000,
  );
});
