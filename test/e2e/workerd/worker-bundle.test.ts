// The Worker bundle in workerd (`wrangler dev --local`) against the production stand-ins: PostgreSQL via
// the Neon HTTP stand-in, Upstash limits, QStash publishes and Stripe checkout. Submit → 201 and 402,
// list, detail, openapi.json, a signed Stripe event (and a forged one refused), a signed QStash job, the
// MCP server (initialize, tools/list, tool calls), the OAuth endpoints (./oauth-in-worker.ts), a sign-in code sent
// through the mail API stand-in and the API reference's script from the static assets ([assets] in wrangler.toml,
// built by its [build] command), and a crawl that keeps a loopback fixture's og:image in the R2 bucket binding
// MEDIA (wrangler's local R2) and serves it back from /media/{sha256}.{ext}, all answered from inside workerd
// (which also proves the wrangler.toml aliases leave the MCP SDK working); listing statistics counted after the
// response through waitUntil into the Upstash stand-in and rolled up on a signed job.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as QStashClient } from '@upstash/qstash';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { readFileSync } from 'node:fs';
import { referenceUiFile } from '../../../functions/node/reference-ui-package';
import { EXPLORER_CSP } from '../../../functions/v1/docs/explorer-page';
import { COPY_SCRIPT } from '../../../functions/pages/shell/copy-button';
import { pageCsp } from '../../../functions/pages/shell/document';
import { REFERENCE_UI_PATH } from '../../../functions/v1/docs/reference-ui';
import { STYLESHEET, stylesheetPath } from '../../../functions/pages/shell/stylesheet';
import { openNodePostgres } from '../../../src/db/node-clients';
import { findPostgresBinaries } from '../../helpers/services/postgres';
import { findRedisServer } from '../../helpers/services/redis';
import { requireService } from '../../helpers/services/require-service';
import { type ProductionStack, STACK_SECRETS, startProductionStack } from '../../helpers/standins/production-stack';
import { buildStripeEvent, signStripeEvent } from '../../helpers/standins/stripe-signature';
import { startWranglerDev, type WranglerDev } from './wrangler-dev';
import { createHash } from 'node:crypto';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { pngBytes } from '../../helpers/image-bytes';
import { seedTools } from '../../helpers/live-tools';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { BROWSER_UA } from '../../helpers/stats-harness';
import { DISPOSABLE_DOMAINS_ASSET_PATH } from '../../../src/adapters/disposable-domains/types';
import type { Deps } from '../../../src/deps';
import { createApp } from '../../../functions/app';
import { generateOpenApiJson } from '../../../functions/v1/docs/openapi-generator';
import { listedTools } from '../../../functions/mcp/tool-listing';
import { mcpTools } from '../../../functions/mcp/tools';

const describeStack = requireService(
  'PostgreSQL and Redis',
  findPostgresBinaries() !== null && findRedisServer() !== null,
);
const ADMIN = 'workerd-admin-token-0123456789abcdef';

describeStack('Worker bundle in workerd', () => {
  let stack: ProductionStack;
  let worker: WranglerDev;
  let fixture: FixtureSite;

  const call = (path: string, init: { method?: string; key?: string; json?: unknown } = {}) =>
    fetch(`${worker.url}${path}`, {
      method: init.method ?? (init.json ? 'POST' : 'GET'),
      headers: {
        ...(init.key && { authorization: `Bearer ${init.key}` }),
        ...(init.json !== undefined && { 'content-type': 'application/json' }),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });

  async function member(tier: 'none' | 'member') {
    const account = await call('/api/v1/admin/accounts', {
      key: ADMIN,
      json: { email: `w-${crypto.randomUUID().slice(0, 8)}@example.com`, tier },
    });
    expect(account.status).toBe(201);
    const { account_id } = (await account.json()) as { account_id: string };
    const key = await call(`/api/v1/admin/accounts/${account_id}/keys`, { key: ADMIN, method: 'POST' });
    expect(key.status).toBe(201);
    return ((await key.json()) as { key: string }).key;
  }

  beforeAll(async () => {
    stack = await startProductionStack();
    await (await openNodePostgres(stack.env.DATABASE_URL!)).close(); // migrations, like npm run db:migrate
    fixture = await startFixtureSite();
    // CRAWL_ALLOW_PRIVATE: the crawl test reaches the loopback fixture by IP literal (judged without any lookup,
    // so the Worker's DoH resolver is never asked); the other tests submit *.example URLs that are never crawled.
    worker = await startWranglerDev({
      ...stack.env,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
      CRAWL_ALLOW_PRIVATE: 'true',
    });
  }, 180_000);
  afterAll(async () => {
    await worker?.close();
    await fixture?.close();
    await stack?.close();
  });

  it('submits (201 member, 402 with a Stripe checkout link), lists and reads back', async () => {
    const memberKey = await member('member');
    const url = `https://workerd-${Date.now()}.example/`;
    const queued = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd Tool ${Date.now()}`, url },
    });
    expect(queued.status, worker.output()).toBe(201);
    const { site_id } = (await queued.json()) as { site_id: string };
    const list = (await (await call('/api/v1/sites?limit=20', { key: memberKey })).json()) as {
      sites: Array<{ site_id: string }>;
    };
    expect(list.sites.map((s) => s.site_id)).toEqual([site_id]);
    const detail = await call(`/api/v1/sites/${site_id}`, { key: memberKey });
    expect(await detail.json()).toMatchObject({ site_id, status: 'queued', url });

    const payerKey = await member('none');
    const unpaid = await call('/api/v1/submit-site', {
      key: payerKey,
      json: { name: `Workerd Paid ${Date.now()}`, url: `https://paid-${Date.now()}.example/` },
    });
    expect(unpaid.status, worker.output()).toBe(402);
    const pending = (await unpaid.json()) as { checkout_url: string; site_id: string };
    const session = [...stack.stripe.sessions.values()].find((s) => s.url === pending.checkout_url);
    expect(session).toBeDefined(); // the link came from the Stripe stand-in, called from inside workerd
    expect(await (await call(`/api/v1/sites/${pending.site_id}`, { key: payerKey })).json()).toMatchObject({
      status: 'pending_payment',
    });
    // The rate limiter ran on Upstash (the stand-in saw the requests).
    expect(stack.upstash.requestCount).toBeGreaterThan(0);
  });

  it('compares URLs and names by their canonical forms inside workerd (the confusables data is bundled)', async () => {
    const memberKey = await member('member');
    const stamp = Date.now();
    const first = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd Canon ${stamp}`, url: `https://www.canon-${stamp}.example/%61pp/index.html` },
    });
    expect(first.status, worker.output()).toBe(201);
    const byName = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd \u0421anon ${stamp}`, url: `https://other-${stamp}.example/` },
    });
    expect(byName.status, worker.output()).toBe(409);
    const byUrl = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd Other ${stamp}`, url: `http://canon-${stamp}.example/app` },
    });
    expect(byUrl.status, worker.output()).toBe(409);
    // Issue 27, in workerd's own URL parser: a filler is a space, a backslash is refused, a URL is stored as parsed.
    const byFiller = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd\u2800Canon ${stamp}`, url: `https://filler-${stamp}.example/` },
    });
    expect(byFiller.status, worker.output()).toBe(409);
    const backslash = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd Slash ${stamp}`, url: `http://tool.localhost:8000\\@slash-${stamp}.example/` },
    });
    expect(backslash.status, worker.output()).toBe(400);
    expect(((await backslash.json()) as { error: { message: string } }).error.message).toMatch(
      // The words of the Node server's submit too (test/functions/v1/sites/url-spelling.test.ts).
      /^url: The address must not contain a backslash/,
    );
    const parsed = await call('/api/v1/submit-site', {
      key: memberKey,
      json: { name: `Workerd Parsed ${stamp}`, url: `HTTPS://Parsed-${stamp}.EXAMPLE` },
    });
    const { site_id } = (await parsed.json()) as { site_id: string };
    expect(await (await call(`/api/v1/sites/${site_id}`, { key: memberKey })).json()).toMatchObject({
      url: `https://parsed-${stamp}.example/`,
    });
  });

  it('answers MCP through the SDK client: initialize, tools/list with schemas, submit_site and search_tools', async () => {
    const key = await member('member');
    const client = new Client({ name: 'workerd-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${worker.url}/api/mcp/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'tooldir' });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['search_tools', 'get_tool', 'submit_site', 'get_site_status']),
      );
      expect(tools.find((tool) => tool.name === 'submit_site')?.inputSchema.required).toEqual(['name', 'url']);
      // The very listing Node answers (JSON Schema generated the same way in the built bundle).
      expect(tools).toEqual(JSON.parse(JSON.stringify(listedTools(mcpTools))));
      const submitted = await client.callTool({
        name: 'submit_site',
        arguments: { name: `Workerd MCP ${Date.now()}`, url: `https://mcp-${Date.now()}.example/` },
      });
      expect(submitted.isError, JSON.stringify(submitted)).toBeFalsy();
      expect(submitted.structuredContent).toMatchObject({ status: 'queued' });
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'anything' } });
      expect(found.isError, JSON.stringify(found)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('queues a 402 submission on a correctly signed checkout.session.completed and refuses a forged one', async () => {
    const payerKey = await member('none');
    const unpaid = await call('/api/v1/submit-site', {
      key: payerKey,
      json: { name: `Workerd Stripe ${Date.now()}`, url: `https://stripe-${Date.now()}.example/` },
    });
    expect(unpaid.status, worker.output()).toBe(402);
    const pending = (await unpaid.json()) as { checkout_url: string; site_id: string };
    // The session the Worker created on the Stripe stand-in; Stripe sends it back, paid, in the event.
    const session = [...stack.stripe.sessions.values()].find((s) => s.url === pending.checkout_url);
    expect(session).toMatchObject({ client_reference_id: pending.site_id });
    const event = buildStripeEvent('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      payment_intent: `pi_test_${crypto.randomUUID().slice(0, 12)}`,
    });
    const postEvent = (signature: string) =>
      fetch(`${worker.url}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: event,
      });

    const forged = await postEvent(signStripeEvent(event, 'whsec_forged_0000000000000000'));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({
      error: { code: 'invalid_request', message: 'The Stripe-Signature header does not match this body.' },
    });
    expect(await (await call(`/api/v1/sites/${pending.site_id}`, { key: payerKey })).json()).toMatchObject({
      status: 'pending_payment',
    });

    const signed = await postEvent(signStripeEvent(event, STACK_SECRETS.stripeWebhookSecret));
    expect(signed.status, worker.output()).toBe(200);
    expect(await (await call(`/api/v1/sites/${pending.site_id}`, { key: payerKey })).json()).toMatchObject({
      site_id: pending.site_id,
      status: 'queued',
    });
  });

  it('runs a QStash-signed sweep job and refuses an unsigned one', async () => {
    const unsigned = await fetch(`${worker.url}/api/jobs/sweep`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unsigned.status).toBe(401);
    // Published through the real QStash client to the stand-in, then delivered signed like QStash does.
    const qstash = new QStashClient({ baseUrl: stack.env.QSTASH_URL!, token: stack.env.QSTASH_TOKEN! });
    await qstash.publishJSON({ url: `${worker.url}/api/jobs/sweep`, body: {} });
    const message = stack.qstash.messages.find((m) => m.destination === `${worker.url}/api/jobs/sweep`);
    expect(message).toBeDefined();
    const delivered = await stack.qstash.deliver(message!, STACK_SECRETS.qstashCurrentSigningKey);
    expect(delivered.status, worker.output()).toBeLessThan(300);
  });

  it('counts a page view and a click after the response (waitUntil) into Upstash Redis, and rolls them up on a signed job', async () => {
    const account = await call('/api/v1/admin/accounts', {
      key: ADMIN,
      json: { email: `stats-${crypto.randomUUID().slice(0, 8)}@example.com`, tier: 'member' },
    });
    const { account_id } = (await account.json()) as { account_id: string };
    const key = (
      (await (await call(`/api/v1/admin/accounts/${account_id}/keys`, { key: ADMIN, method: 'POST' })).json()) as {
        key: string;
      }
    ).key;
    const db = await openNodePostgres(stack.env.DATABASE_URL!);
    let tool: { id: string; slug: string };
    try {
      tool = await seedOwnedTool(db.db, account_id, { name: `Workerd Counted ${crypto.randomUUID().slice(0, 6)}` });
    } finally {
      await db.close();
    }
    const browser = { 'user-agent': BROWSER_UA };
    expect((await fetch(`${worker.url}/tools/${tool.slug}`, { headers: browser })).status, worker.output()).toBe(200);
    const go = await fetch(`${worker.url}/go/${tool.slug}`, { headers: browser, redirect: 'manual' });
    expect(go.status).toBe(302);
    expect(go.headers.get('location')).toBe(`https://${tool.slug}.example/?ref=tooldir`);
    // The writes happen after the responses: wait until both counters reached Redis (the counting script's rows
    // follow its two keys and two numbers: field, n, gates, then a mark and a cap per gate).
    const counted = () =>
      stack.upstash.commands
        .filter((c) => c[0] === 'EVAL')
        .flatMap((c) => c.slice(7).filter((arg) => String(arg).startsWith(`${tool.slug} `)));
    for (let i = 0; i < 50 && counted().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(counted().map(String).sort(), worker.output()).toEqual([`${tool.slug} clicks`, `${tool.slug} views`]);

    const qstash = new QStashClient({ baseUrl: stack.env.QSTASH_URL!, token: stack.env.QSTASH_TOKEN! });
    await qstash.publishJSON({ url: `${worker.url}/api/jobs/stats-rollup`, body: {} });
    const message = stack.qstash.messages.find((m) => m.destination === `${worker.url}/api/jobs/stats-rollup`);
    expect((await stack.qstash.deliver(message!, STACK_SECRETS.qstashCurrentSigningKey)).status, worker.output()).toBe(
      200,
    );
    const today = new Date().toISOString().slice(0, 10);
    const stats = await call(`/api/v1/sites/${tool.id}/stats?from=${today}&to=${today}`, { key });
    expect(((await stats.json()) as { days: unknown[] }).days).toEqual([
      { date: today, views: 1, clicks: 1, impressions: 0, badge_loads: 0 },
    ]);
  });

  it('keeps a crawled og:image in the R2 bucket binding and serves it from /media', async () => {
    const png = pngBytes(2026);
    const name = `${createHash('sha256').update(png).digest('hex')}.png`;
    fixture.route(
      '/og.png',
      (_request, response) => void response.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.from(png)),
    );
    fixture.route(
      '/r2-tool',
      htmlPage('<html><head><title>R2 Tool</title><meta property="og:image" content="/og.png"></head></html>'),
    );
    const key = await member('member');
    const queued = await call('/api/v1/submit-site', {
      key,
      json: { name: `R2 Tool ${Date.now()}`, url: `${fixture.origin}/r2-tool` },
    });
    expect(queued.status, worker.output()).toBe(201);
    const { site_id } = (await queued.json()) as { site_id: string };
    const message = stack.qstash.messages.find(
      (m) => m.destination === `${worker.url}/api/jobs/crawl` && m.body.includes(site_id),
    );
    expect(message).toBeDefined();
    const crawled = await stack.qstash.deliver(message!, STACK_SECRETS.qstashCurrentSigningKey);
    expect(crawled.status, worker.output()).toBeLessThan(300);
    const db = await openNodePostgres(stack.env.DATABASE_URL!);
    try {
      const [row] = await queryRows<{ status: string; image: string | null }>(
        db.db,
        sql`SELECT status, metadata->>'image' AS image FROM sites WHERE id = ${site_id}::uuid`,
      );
      expect(row, worker.output()).toEqual({ status: 'pending_review', image: name });
    } finally {
      await db.close();
    }
    // The page, its og:image and the default icon (/favicon.ico, a 404 here: the icon stays null).
    expect(fixture.hits.map((hit) => hit.path).sort()).toEqual(['/favicon.ico', '/og.png', '/r2-tool']);
    const served = await fetch(`${worker.url}/media/${name}`);
    expect(served.status, worker.output()).toBe(200);
    expect(Object.fromEntries(served.headers)).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    });
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    const missing = await fetch(`${worker.url}/media/${'0'.repeat(64)}.png`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('keeps public pages in the Cache API per listing version: a hit at once, a new live tool within seconds', async () => {
    const slug = `cached-in-workerd-${Date.now()}`;
    const search = `/?q=${slug}`;
    const first = await fetch(`${worker.url}${search}`);
    expect(first.status, worker.output()).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    expect(await first.text()).toContain('No tool matches your search.');
    const second = await fetch(`${worker.url}${search}`);
    expect(second.headers.get('x-cache'), worker.output()).toBe('hit');
    expect(second.headers.get('ratelimit-remaining')).toBeNull(); // answered before the limiter
    const db = await openNodePostgres(stack.env.DATABASE_URL!);
    try {
      await seedTools(db.db, [{ name: slug, slug }], worker.url);
    } finally {
      await db.close();
    }
    // The Worker reads the listing version at most once a second, in the background: the new tool shows within a
    // couple of seconds, never an old page under the new version.
    const deadline = Date.now() + 10_000;
    let text = '';
    while (Date.now() < deadline && !text.includes(`/tools/${slug}`)) {
      await new Promise((r) => setTimeout(r, 250));
      text = await (await fetch(`${worker.url}${search}`)).text();
    }
    expect(text, worker.output()).toContain(`/tools/${slug}`);
  });

  it('mails a sign-in code through the mail API (the stack stand-in), never into mail_outbox', async () => {
    const page = await fetch(`${worker.url}/account/sign-in`);
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const email = `workerd-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await fetch(`${worker.url}/account/sign-in`, {
      method: 'POST',
      headers: { cookie, origin: worker.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email }),
    });
    expect(res.status, worker.output()).toBe(200);
    expect((await stack.mail.waitFor((m) => m.to === email)).text).toMatch(/\b\d{6}\b/);
    const outbox = await openNodePostgres(stack.env.DATABASE_URL!);
    try {
      expect(await queryRows(outbox.db, sql`SELECT 1 FROM mail_outbox`)).toEqual([]);
    } finally {
      await outbox.close();
    }
  });

  it('refuses a disposable-mail address at sign-in: the list comes from the static assets through the ASSETS binding', async () => {
    const page = await fetch(`${worker.url}/account/sign-in`);
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const email = `workerd-${crypto.randomUUID().slice(0, 8)}@mailinator.com`;
    const res = await fetch(`${worker.url}/account/sign-in`, {
      method: 'POST',
      headers: { cookie, origin: worker.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email }),
    });
    expect(res.status, worker.output()).toBe(400);
    expect(await res.text()).toContain('Addresses at mailinator.com are disposable');
    // The domain as mail reads it (UTS #46 through workerd's URL parser): full-width letters and an ideographic full stop.
    const folded = await fetch(`${worker.url}/account/sign-in`, {
      method: 'POST',
      headers: { cookie, origin: worker.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: csrf,
        email: `workerd-${crypto.randomUUID().slice(0, 8)}@ｍａｉｌｉｎａｔｏｒ\u3002com.`,
      }),
    });
    expect(folded.status, worker.output()).toBe(400);
    expect(await folded.text()).toContain('Addresses at mailinator.com are disposable');
    // The list itself is a static asset (public data), answered before the Worker runs.
    const list = await call(DISPOSABLE_DOMAINS_ASSET_PATH);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-request-id')).toBeNull();
    expect((await list.json()) as string[]).toContain('mailinator.com');
  });

  it('runs OAuth inside the Worker: discovery, registration, consent, code exchange, /mcp with the token, refresh and reuse', async () => {
    const { exerciseOAuth } = await import('./oauth-in-worker');
    await exerciseOAuth(worker, stack);
  });

  it('serves the stylesheet every page links to as a static asset (the Worker carries its hashed path alone)', async () => {
    const page = await call('/');
    expect(page.status).toBe(200);
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(await page.text())?.[1];
    expect(href).toBe(stylesheetPath());
    const css = await call(href!);
    expect(css.status, worker.output()).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css\b/);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(css.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await css.text()).toBe(STYLESHEET);
    expect(css.headers.get('x-request-id')).toBeNull(); // served before the Worker runs
    // An older hash reaches the Worker: the 404 page, never stale rules.
    const old = await call('/assets/site.0000000000000000.css');
    expect(old.status).toBe(404);
    expect(old.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('serves openapi.json, byte for byte the text Node generates for its origin (the Worker reads it from its assets)', async () => {
    const res = await call('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const text = await res.text();
    const doc = JSON.parse(text) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/v1/submit-site');
    // Registering the routes reads no dependency; only handling a request would.
    expect(text).toBe(generateOpenApiJson(createApp({} as Deps), worker.url));
  });

  it('serves the explorer script as a static asset (JavaScript, nosniff, a year of caching), the explorer and the reference page with their CSP', async () => {
    const asset = await call(REFERENCE_UI_PATH);
    expect(asset.status, worker.output()).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await asset.arrayBuffer()).equals(readFileSync(referenceUiFile()))).toBe(true);
    // Served before the Worker runs: no request id (the Worker sets one on every answer).
    expect(asset.headers.get('x-request-id')).toBeNull();

    const explorer = await call('/api/v1/docs/explorer');
    expect(explorer.status).toBe(200);
    expect(explorer.headers.get('content-security-policy')).toBe(EXPLORER_CSP);
    expect(await explorer.text()).toContain(`<script src="${REFERENCE_UI_PATH}"></script>`);
    // The reference page itself is rendered by the Worker from its own openapi.json, under the pages' policy.
    const page = await call('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(pageCsp(COPY_SCRIPT));
    expect(await page.text()).toContain('<h3 id="submitSite">');

    // Another name under the path reaches the Worker (its JSON 404), and so does Cloudflare's _headers file itself
    // (the HTML 404 page): neither is a public file.
    const other = await call('/api/v1/docs/assets/scalar-api-reference-0.0.1.js');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect(other.headers.get('x-request-id')).toBeTruthy();
    const headersFile = await call('/_headers');
    expect(headersFile.status).toBe(404);
    expect(headersFile.headers.get('x-request-id')).toBeTruthy();
    expect(await headersFile.text()).not.toContain('Cache-Control');
  });
});
