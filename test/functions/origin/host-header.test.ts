// Our origin comes from configuration, never from the Host header (src/origin.ts, docs/deploy.md "Origins").
// Node and Workers build the request URL from Host, so a request for http://evil.test/... below is exactly what
// a spoofed `Host: evil.test` (or a DNS-rebinding name pointing at the server) produces.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { signQStash } from '../../helpers/standins/qstash-signer';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { ADMIN_TOKEN, createTestApp, uniqueName, uniqueUrl, type TestApp } from '../../helpers/test-app';
import { csrfOf, newEmail, outboxFor, PageClient } from '../pages/account-client';

const CURRENT = 'sig_current_0123456789abcdefghij';
const NEXT = 'sig_next_0123456789abcdefghijklmn';
const EVIL = 'http://evil.test';
const OURS = 'http://tooldir.test'; // SITE_ORIGIN of createTestApp

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { QSTASH_CURRENT_SIGNING_KEY: CURRENT, QSTASH_NEXT_SIGNING_KEY: NEXT, AUTO_APPROVE: 'false' },
    overrides: { queue: recordingQueue() }, // no pipeline runs: nothing is crawled
  });
});
afterAll(() => t.close());

/** app.request at another host; headers as a browser or an attacker would send them. */
const at = (origin: string, path: string, init: RequestInit = {}) =>
  Promise.resolve(t.app.request(`${origin}${path}`, init));

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
const mcpPost = (host: string, origin: string) =>
  at(host, '/api/mcp/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
    body: initialize,
  });

async function unpaidCheckoutUrl(host: string): Promise<string> {
  const m = await t.member('none');
  const res = await at(host, '/api/v1/submit-site', {
    method: 'POST',
    headers: { authorization: `Bearer ${m.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: uniqueName('Spoof'), url: uniqueUrl('spoof') }),
  });
  expect(res.status).toBe(402);
  return ((await res.json()) as { checkout_url: string }).checkout_url;
}

describe('QStash deliveries: the signed URL (`sub`) must be ours', () => {
  it('refuses a token signed for http://evil.test/api/jobs/sweep sent with Host: evil.test', async () => {
    const res = await at(EVIL, '/api/jobs/sweep', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'upstash-signature': signQStash({ body: '{}', url: `${EVIL}/api/jobs/sweep`, key: CURRENT }),
      },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'Invalid Upstash-Signature.' } });
  });

  it('checks against SITE_ORIGIN whatever the Host says: a token for our URL is accepted even under Host: evil.test', async () => {
    const res = await at(EVIL, '/api/jobs/sweep', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'upstash-signature': signQStash({ body: '{}', url: `${OURS}/api/jobs/sweep`, key: CURRENT }),
      },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, outcome: 'swept' });
  });
});

describe('DNS-rebinding check of the endpoints any origin may call: the Host, not the Origin', () => {
  it("refuses a request addressed to the attacker's name, whatever its Origin", async () => {
    for (const origin of [EVIL, OURS]) {
      const res = await mcpPost(EVIL, origin);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Forbidden: Host evil.test is not this server.' },
        id: null,
      });
    }
    const token = await at(EVIL, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token',
    });
    expect(token.status).toBe(403);
    expect(await token.json()).toEqual({
      error: 'invalid_request',
      error_description: 'This endpoint answers requests for its own host, not evil.test.',
    });
  });

  it('serves our Host from any Origin', async () => {
    for (const origin of [EVIL, OURS, 'https://elsewhere.example'])
      expect((await mcpPost(OURS, origin)).status).toBe(200);
  });
});

describe('links we hand out name SITE_ORIGIN', () => {
  it('checkout return URL (the local checkout page) of a 402', async () => {
    expect(await unpaidCheckoutUrl(EVIL)).toMatch(/^http:\/\/tooldir\.test\/checkout\/cs_local_/);
  });

  it('llms.txt, openapi.json servers and the home page canonical link', async () => {
    const llms = await (await at(EVIL, '/llms.txt')).text();
    expect(llms).toContain(`${OURS}/api/mcp/mcp`);
    expect(llms).not.toContain('evil.test');
    const openapi = (await (await at(EVIL, '/api/v1/openapi.json')).json()) as { servers: Array<{ url: string }> };
    expect(openapi.servers.map((s) => s.url)).toEqual([OURS]);
    const home = await (await at(EVIL, '/')).text();
    expect(home).toContain(`<link rel="canonical" href="${OURS}/">`);
    expect(home).not.toContain('evil.test');
  });

  it('live_url of a tool published by a request under Host: evil.test, and its page canonical', async () => {
    const { accountId } = await t.member('member');
    const id = crypto.randomUUID();
    const name = uniqueName('Spoofed Publish');
    const url = uniqueUrl('publish');
    await queryRows(
      t.deps.db,
      sql`INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan)
          VALUES (${id}::uuid, ${accountId}::uuid, ${name}, ${url}, ${url}, ${name.toLowerCase()}, 'pending_review', 'membership', 'basic')`,
    );
    const res = await at(EVIL, `/api/v1/admin/sites/${id}/review`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve' }),
    });
    expect(res.status).toBe(200);
    const [row] = await queryRows<{ live_url: string; slug: string }>(
      t.deps.db,
      sql`SELECT live_url, slug FROM sites WHERE id = ${id}::uuid`,
    );
    expect(row!.live_url).toBe(`${OURS}/tools/${row!.slug}`);
    const page = await (await at(EVIL, `/tools/${row!.slug}`)).text();
    expect(page).toContain(`<link rel="canonical" href="${OURS}/tools/${row!.slug}">`);
  });
});

describe('form CSRF: a cross-site post under a spoofed Host is refused', () => {
  it('account area: Host and Origin evil.test with a valid token and cookie mail nothing', async () => {
    const client = new PageClient(t, undefined, EVIL);
    const { html } = await client.page('/account/sign-in');
    const email = newEmail();
    const foreign = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(html), email },
      headers: { origin: EVIL },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('did not come from this site');
    expect(await outboxFor(t, email)).toEqual([]);
    // Only the Origin decides: the same form with our Origin (the Host still evil.test) goes through.
    const ours = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(html), email },
      headers: { origin: OURS },
    });
    expect(ours.status).toBe(200);
  });

  it('editor page: a login posted from evil.test with the right operator token opens no session', async () => {
    const login = (origin: string) =>
      at(EVIL, '/admin/login', {
        method: 'POST',
        body: new URLSearchParams({ token: ADMIN_TOKEN }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      });
    const foreign = await login(EVIL);
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    expect((await login(OURS)).status).toBe(303);
  });

  it('checkout page: Pay posted from evil.test with the page token queues nothing', async () => {
    const checkout = new URL(await unpaidCheckoutUrl(OURS));
    const page = await (await at(EVIL, checkout.pathname)).text();
    const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(page)?.[1];
    expect(token).toBeDefined();
    const pay = (origin: string) =>
      at(EVIL, `${checkout.pathname}/pay`, {
        method: 'POST',
        body: new URLSearchParams({ _csrf: token! }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      });
    expect((await pay(EVIL)).status).toBe(403);
    const [pending] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM sites WHERE stripe_checkout_session_id = ${checkout.pathname.split('/').pop()!}`,
    );
    expect(pending!.n).toBe(0);
    expect((await pay(OURS)).status).toBe(303);
  });
});

describe('local mode without SITE_ORIGIN: a Host that is not a loopback name is the bound address', () => {
  let local: TestApp;
  const BOUND = 'http://127.0.0.1:8787'; // HOST and PORT defaults; the Node entry uses the port it really bound
  beforeAll(async () => {
    local = await createTestApp({
      env: { SITE_ORIGIN: '', QSTASH_CURRENT_SIGNING_KEY: CURRENT, QSTASH_NEXT_SIGNING_KEY: NEXT },
      overrides: { queue: recordingQueue() },
    });
  });
  afterAll(() => local.close());
  const localAt = (origin: string, path: string, init: RequestInit = {}) =>
    Promise.resolve(local.app.request(`${origin}${path}`, init));

  it('links: llms.txt, the home canonical and a checkout return URL', async () => {
    expect(await (await localAt(EVIL, '/llms.txt')).text()).toContain(`${BOUND}/api/v1/openapi.json`);
    expect(await (await localAt(EVIL, '/')).text()).toContain(`<link rel="canonical" href="${BOUND}/">`);
    const m = await local.member('none');
    const res = await localAt(EVIL, '/api/v1/submit-site', {
      method: 'POST',
      headers: { authorization: `Bearer ${m.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: uniqueName('Local Spoof'), url: uniqueUrl('local-spoof') }),
    });
    expect(
      ((await res.json()) as { checkout_url: string }).checkout_url.startsWith(`${BOUND}/checkout/cs_local_`),
    ).toBe(true);
  });

  it('a loopback Host keeps its own origin (http://localhost:8787 works in a browser like 127.0.0.1)', async () => {
    expect(await (await localAt('http://localhost:8787', '/llms.txt')).text()).toContain(
      'http://localhost:8787/api/v1/openapi.json',
    );
    const res = await local.app.request('http://localhost:8787/api/mcp/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://localhost:8787',
      },
      body: initialize,
    });
    expect(res.status).toBe(200);
  });

  it('MCP: Host evil.test is refused; any loopback Host is ours', async () => {
    const res = await local.app.request(`${EVIL}/api/mcp/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: EVIL },
      body: initialize,
    });
    expect(res.status).toBe(403);
    for (const host of ['http://127.0.0.2:8787', 'http://[::1]:9999', 'http://app.localhost']) {
      const loopback = await local.app.request(`${host}/api/mcp/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: EVIL },
        body: initialize,
      });
      expect(loopback.status, host).toBe(200);
    }
  });

  it('QStash: a token for evil.test is refused, one for the bound address accepted under the same Host', async () => {
    const deliver = (signedFor: string) =>
      localAt(EVIL, '/api/jobs/sweep', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'upstash-signature': signQStash({ body: '{}', url: `${signedFor}/api/jobs/sweep`, key: CURRENT }),
        },
        body: '{}',
      });
    expect((await deliver(EVIL)).status).toBe(401);
    expect((await deliver(BOUND)).status).toBe(200);
  });

  it('account area: a cross-site post under Host evil.test is refused', async () => {
    const client = new PageClient(local, undefined, EVIL);
    const { html } = await client.page('/account/sign-in');
    const email = newEmail();
    const res = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(html), email },
      headers: { origin: EVIL },
    });
    expect(res.status).toBe(403);
    expect(await outboxFor(local, email)).toEqual([]);
  });
});
