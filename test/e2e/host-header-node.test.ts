// The real Node entry in local mode (no SITE_ORIGIN) over a socket, with a raw Host header: a Host that is not
// a loopback name is treated as the bound address (src/origin.ts), so links, the MCP Host check and QStash's
// `sub` verification never take the attacker's name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../functions/node';
import { requestWithHost } from '../helpers/raw-host-request';
import { signQStash } from '../helpers/standins/qstash-signer';
import { recordingQueue } from '../helpers/stripe/payments-fixture';

const CURRENT = 'sig_current_node_0123456789abcdef';

let server: NodeServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tooldir-host-header-'));
  server = await startNodeServer(
    {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      QSTASH_CURRENT_SIGNING_KEY: CURRENT,
      QSTASH_NEXT_SIGNING_KEY: 'sig_next_node_0123456789abcdef',
    },
    { overrides: { queue: recordingQueue() }, localSweeper: false }, // nothing is crawled from this test
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const send = (path: string, init: Parameters<typeof requestWithHost>[2]) => requestWithHost(server.url, path, init);

const evilHost = () => `evil.test:${server.port}`;
const evilOrigin = () => `http://${evilHost()}`;
const json = (value: unknown) => JSON.stringify(value);
const initialize = json({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

async function operator(path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: json(body),
  });
  return res.json() as Promise<Record<string, string>>;
}

describe('Host: evil.test against the local Node server', () => {
  it('a 402 checkout return URL and llms.txt name the bound address', async () => {
    const { account_id } = await operator('/api/v1/admin/accounts', {
      email: `host-${crypto.randomUUID().slice(0, 8)}@example.com`,
    });
    const { key } = await operator(`/api/v1/admin/accounts/${account_id}/keys`, {});
    const submitted = await send('/api/v1/submit-site', {
      host: evilHost(),
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: json({ name: 'Host Header Tool', url: 'https://host-header.example' }),
    });
    expect(submitted.status).toBe(402);
    expect(
      (JSON.parse(submitted.text) as { checkout_url: string }).checkout_url.startsWith(
        `${server.url}/checkout/cs_local_`,
      ),
    ).toBe(true);
    const llms = await send('/llms.txt', { host: evilHost() });
    expect(llms.text).toContain(`${server.url}/api/mcp/mcp`);
    expect(llms.text).not.toContain('evil.test');
  });

  it('MCP refuses Host: evil.test whatever the Origin, and serves a loopback Host from any Origin', async () => {
    const headers = (origin: string) => ({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      origin,
    });
    for (const origin of [evilOrigin(), server.url]) {
      const spoofed = await send('/api/mcp/mcp', {
        host: evilHost(),
        method: 'POST',
        headers: headers(origin),
        body: initialize,
      });
      expect(spoofed.status).toBe(403);
      expect(spoofed.text).toContain(`Forbidden: Host ${evilHost()} is not this server.`);
    }
    const localhost = `localhost:${server.port}`;
    for (const origin of [`http://${localhost}`, 'https://elsewhere.example']) {
      const ok = await send('/api/mcp/mcp', {
        host: localhost,
        method: 'POST',
        headers: headers(origin),
        body: initialize,
      });
      expect(ok.status).toBe(200);
    }
  });

  it('QStash: a token signed for http://evil.test…/api/jobs/sweep is refused; one for the bound address is accepted under the same Host', async () => {
    const deliver = (signedFor: string) =>
      send('/api/jobs/sweep', {
        host: evilHost(),
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'upstash-signature': signQStash({ body: '{}', url: `${signedFor}/api/jobs/sweep`, key: CURRENT }),
        },
        body: '{}',
      });
    const forged = await deliver(evilOrigin());
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.text)).toEqual({ error: { code: 'unauthorized', message: 'Invalid Upstash-Signature.' } });
    expect((await deliver(server.url)).status).toBe(200);
  });
});
