import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceUiFile } from '../../functions/node/reference-ui-package';
import { REFERENCE_UI_PATH } from '../../functions/v1/reference-ui';
import { startChildServer, type ChildServer } from '../helpers/child-server';

// The README's promise: `npm start` serves the API on embedded defaults, over real HTTP.
let server: ChildServer;
const dataDir = mkdtempSync(join(tmpdir(), 'tooldir-start-'));

beforeAll(async () => {
  server = await startChildServer({ dataDir, viaNpm: true });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (bin/start.js and its server bundle as a child process)', () => {
  it('prints the URL, where the data lives and how to get an operator token and a first key', () => {
    const out = server.output();
    expect(out).toContain(`tooldir is running at ${server.url}`);
    expect(out).toContain(join(dataDir, 'pglite'));
    expect(out).toContain(join(dataDir, 'admin-token'));
    expect(out).toContain('/api/v1/admin/accounts');
  });

  it('keeps the generated operator token private to the user', () => {
    expect(statSync(join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
  });

  it('serves the whole submit flow over HTTP', async () => {
    const admin = { authorization: `Bearer ${server.adminToken()}`, 'content-type': 'application/json' };
    const account = await fetch(`${server.url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ email: 'e2e@example.com', tier: 'member' }),
    });
    expect(account.status).toBe(201);
    const { account_id } = (await account.json()) as { account_id: string };
    const keyRes = await fetch(`${server.url}/api/v1/admin/accounts/${account_id}/keys`, {
      method: 'POST',
      headers: admin,
      body: '{"name":"e2e"}',
    });
    expect(keyRes.status).toBe(201);
    const { key } = (await keyRes.json()) as { key: string };
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const submitted = await fetch(`${server.url}/api/v1/submit-site`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'E2E Tool', url: 'https://e2e-tool.example' }),
    });
    expect(submitted.status).toBe(201);
    expect(submitted.headers.get('x-request-id')).toBeTruthy();
    const { site_id } = (await submitted.json()) as { site_id: string };
    const detail = await fetch(`${server.url}/api/v1/sites/${site_id}`, { headers: auth });
    expect(detail.status).toBe(200);
    const paid = await fetch(`${server.url}/api/v1/submit-site`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'E2E Sponsor', url: 'https://e2e-sponsor.example', plan: 'sponsored' }),
    });
    expect(paid.status).toBe(402);
    const pending = (await paid.json()) as { checkout_url: string };
    expect(pending.checkout_url.startsWith(`${server.url}/checkout/`)).toBe(true);
  });

  it('serves the API reference, the explorer and its script from node_modules, found from the bundle in dist/node/', async () => {
    const page = await fetch(`${server.url}/api/v1/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h3 id="submitSite">');
    const explorer = await fetch(`${server.url}/api/v1/docs/explorer`);
    expect(explorer.status).toBe(200);
    expect(await explorer.text()).toContain(`<script src="${REFERENCE_UI_PATH}"></script>`);
    const asset = await fetch(`${server.url}${REFERENCE_UI_PATH}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Buffer.from(await asset.arrayBuffer()).equals(readFileSync(referenceUiFile()))).toBe(true);
  });

  it('reopens the same data dir after a restart, with the same operator token', async () => {
    const token = server.adminToken();
    await server.stop();
    server = await startChildServer({ dataDir });
    expect(server.adminToken()).toBe(token);
    const res = await fetch(`${server.url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'e2e@example.com' }),
    });
    expect(res.status).toBe(409); // the account made before the restart is still there
  }, 90_000);
});
