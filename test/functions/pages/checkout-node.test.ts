// The local checkout on the real Node entry over a socket: the webhook secret is the one generated in DATA_DIR.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';

let server: NodeServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tooldir-checkout-node-'));
  // The queue only records: no crawl may leave the machine from this test.
  server = await startNodeServer(
    { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    { overrides: { queue: recordingQueue() } },
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    redirect: 'manual',
    headers: {
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...(init.json !== undefined && { 'content-type': 'application/json' }),
      ...(init.headers as Record<string, string> | undefined),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });

it('submit → open the local checkout → Pay → success page and detail read show queued', async () => {
  expect(server.config.stripeWebhookSecret).toBe(readFileSync(join(dataDir, 'stripe-webhook-secret'), 'utf8').trim());
  const account = (await (
    await api('/api/v1/admin/accounts', {
      method: 'POST',
      token: server.adminToken,
      json: { email: 'node-checkout@example.com' },
    })
  ).json()) as { account_id: string };
  const { key } = (await (
    await api(`/api/v1/admin/accounts/${account.account_id}/keys`, { method: 'POST', token: server.adminToken })
  ).json()) as { key: string };

  const submitted = await api('/api/v1/submit-site', {
    method: 'POST',
    token: key,
    json: { name: 'Node Checkout Tool', url: 'https://node-checkout.example' },
  });
  expect(submitted.status).toBe(402);
  const pending = (await submitted.json()) as { site_id: string; checkout_url: string };
  expect(pending.checkout_url.startsWith(`${server.url}/checkout/cs_local_`)).toBe(true);

  const page = await fetch(pending.checkout_url);
  expect(page.status).toBe(200);
  const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(await page.text())?.[1];
  expect(token).toBeDefined();

  const paid = await fetch(`${pending.checkout_url}/pay`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ _csrf: token! }),
  });
  expect(paid.status).toBe(303);
  const success = await api(paid.headers.get('location')!);
  expect(success.status).toBe(200);
  const successPage = await success.text();
  expect(successPage).toContain('<strong id="status" data-status="queued">queued for crawling</strong>');
  expect(successPage).toContain(
    `<a class="button primary" id="follow" href="/account/submissions/${pending.site_id}">Follow your submission</a>`,
  );

  const detail = await api(`/api/v1/sites/${pending.site_id}`, { token: key });
  expect(((await detail.json()) as { status: string }).status).toBe('queued');
});
