// `tooldir submit` retries after a network error with the same Idempotency-Key (docs/idempotency.md, docs/cli.md):
// the real binary against the real local server, through a loopback proxy that loses answers.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser } from './cli-process';
import { startLocalServer, type LocalServer } from './local-server';

interface SeenSubmit {
  idempotencyKey: string | undefined;
  /** The server's answer status, or 'dropped' when the proxy swallowed it. */
  outcome: number | 'dropped';
  replayed: string | null;
}

/**
 * Forwards every request to the server; for the first `drop` submits it lets the server do the work, then
 * closes the client's connection without an answer: the worst case of a lost response.
 */
async function startLossyProxy(
  upstream: string,
  drop: number,
): Promise<{ url: string; submits: SeenSubmit[]; close(): Promise<void> }> {
  const submits: SeenSubmit[] = [];
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    }
    // The proxy only ever talks to the loopback server under test.
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers,
      body: body.length ? body : undefined,
    });
    const text = await answer.text();
    if (req.method === 'POST' && req.url === '/api/v1/submit-site') {
      const seen: SeenSubmit = {
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        outcome: answer.status,
        replayed: answer.headers.get('idempotent-replayed'),
      };
      submits.push(seen);
      if (submits.length <= drop) {
        seen.outcome = 'dropped';
        req.socket.destroy();
        return;
      }
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    submits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

let n = 0;
const freshTool = () => {
  const tag = `${Date.now().toString(36)}r${++n}`;
  return { url: `https://retry-${tag}.example/`, name: `Retry Tool ${tag}` };
};

describe('tooldir submit after a lost answer (e2e)', { timeout: 120_000 }, () => {
  it('retries with the same key: the server ran the submit once and the CLI prints its answer', async () => {
    const proxy = await startLossyProxy(server.url, 1);
    try {
      const { key } = await server.account('member');
      const user = await cliUser(proxy.url);
      const tool = freshTool();
      const run = await user.run(['submit', tool.url, '--name', tool.name], { env: { TOOLDIR_API_KEY: key } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /Retrying the submit in 1 s \(no answer from the API; attempt 2 of 3, same Idempotency-Key\)/,
      );
      expect(proxy.submits).toHaveLength(2);
      const [lost, retried] = proxy.submits;
      expect(lost!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(retried!.idempotencyKey).toBe(lost!.idempotencyKey);
      // The first attempt did the work (201, lost on the way back); the retry got it replayed.
      expect(retried).toMatchObject({ outcome: 201, replayed: 'true' });
      const match = /^Queued .+ \(site_id ([0-9a-f-]{36})\)\. Quota: used 1 of \d+ today\.\n$/.exec(run.stdout);
      expect(match).not.toBeNull();

      const list = await fetch(`${server.url}/api/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
      const sites = (await list.json()) as { total: number; sites: Array<{ site_id: string }> };
      expect(sites.total).toBe(1);
      expect(sites.sites[0]!.site_id).toBe(match![1]);

      // Another invocation is another request: a new key.
      const second = await user.run(['submit', freshTool().url, '--name', freshTool().name], {
        env: { TOOLDIR_API_KEY: key },
      });
      expect(second.code, second.stderr).toBe(0);
      expect(proxy.submits).toHaveLength(3);
      expect(proxy.submits[2]!.idempotencyKey).not.toBe(lost!.idempotencyKey);
    } finally {
      await proxy.close();
    }
  });

  it('gives up after 3 attempts, all with one key, and says it could not reach the API', async () => {
    const proxy = await startLossyProxy(server.url, 99);
    try {
      const { key } = await server.account('none');
      const user = await cliUser(proxy.url);
      const tool = freshTool();
      const run = await user.run(['submit', tool.url, '--name', tool.name], { env: { TOOLDIR_API_KEY: key } });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('Could not reach the tooldir API');
      expect(proxy.submits).toHaveLength(3);
      expect(new Set(proxy.submits.map((s) => s.idempotencyKey)).size).toBe(1);
      // The server made one pending record and one checkout link; the two retries were replays.
      expect(proxy.submits.map((s) => s.replayed)).toEqual([null, 'true', 'true']);
    } finally {
      await proxy.close();
    }
  });
});
