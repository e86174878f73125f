// Issue 27: a URL that URL parsers read differently is refused, and every other URL is stored, published and
// compared as the parser reads it (`new URL(x).href`). `http://tool.localhost:8000\@evil.example/` was accepted and
// published as typed: a browser goes to tool.localhost, curl and most HTTP libraries to evil.example.
// Every way a URL enters is tried: REST, MCP, the /submit form, the list filter, webhooks (API and page).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { runRequestedKeyBackfill } from '../../../../src/submissions/requested-key-backfill';
import { createTestApp, type TestApp, uniqueName } from '../../../helpers/test-app';
import { countRows } from '../../../helpers/raw-requests';
import { moveSite } from '../../../helpers/submission-states';
import { callTool, connectMcp, resultJson } from '../../mcp/mcp-client';
import { csrfOf, signedInMember } from '../../pages/account/account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const host = () => `spell-${crypto.randomUUID().slice(0, 8)}.example`;
const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });

/** Spellings a WHATWG parser rewrites before reading, and other parsers do not. */
const misread = (h: string) =>
  [
    ["the issue's backslash before @", `http://tool.localhost:8000\\@${h}/`, /backslash/],
    ['a backslash after the host', `https://good.example\\@${h}/`, /backslash/],
    ['backslashes for the slashes', `https:\\\\${h}/`, /backslash/],
    ['a backslash in the path', `https://${h}/a\\b`, /backslash/],
    ['three slashes', `https:///${h}/`, /two slashes/],
    ['one slash', `https:/${h}/`, /two slashes/],
    ['a tab inside the host', `https://${h.replace('.', '\t.')}/`, /spaces or control/],
    ['a line break inside the path', `https://${h}/a\nb`, /spaces or control/],
  ] as const;

async function storedFor(accountId: string) {
  return {
    sites: await countRows(t, 'sites', accountId),
    pending: await countRows(t, 'pending_submissions', accountId),
  };
}

describe('a URL parsers read differently', () => {
  it.each(misread(host()))(
    '%s is 400 naming url on REST submit, member or not, and nothing is stored',
    async (_label, url, words) => {
      for (const tier of ['member', 'none'] as const) {
        const m = await t.member(tier);
        const res = await submit(m.key, { name: uniqueName(), url });
        expect(res.status, url).toBe(400);
        const body = await res.json();
        expect(body).toEqual({
          error: { code: 'invalid_request', message: expect.stringMatching(/^url: The address /) },
        });
        expect(body.error.message).toMatch(words);
        expect(await storedFor(m.accountId)).toEqual({ sites: 0, pending: 0 });
      }
    },
  );

  it('is refused by MCP submit_site in the same words, and nothing is stored', async () => {
    const m = await t.member('member');
    const client = await connectMcp(t, { key: m.key });
    for (const [, url, words] of misread(host())) {
      const result = await callTool(client, 'submit_site', { name: uniqueName(), url });
      expect(result.isError, url).toBe(true);
      expect(JSON.stringify(resultJson(result))).toMatch(words);
    }
    await client.close();
    expect(await storedFor(m.accountId)).toEqual({ sites: 0, pending: 0 });
  });

  it('is refused on the /submit form next to the url field, and nothing is stored', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const form = (await client.page('/submit')).html;
    const key = /name="idempotency_key" value="([^"]+)"/.exec(form)![1]!;
    const res = await client.request('/submit', {
      form: {
        _csrf: csrfOf(form),
        idempotency_key: key,
        name: uniqueName(),
        url: `http://tool.localhost:8000\\@${host()}/`,
        plan: 'basic',
      },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(
      /<span class="field-error" id="url-error">The address must not contain a backslash/,
    );
    expect(await storedFor(m.accountId)).toEqual({ sites: 0, pending: 0 });
  });

  it('is 400 naming url as the list filter', async () => {
    const m = await t.member('member');
    const res = await t.request(`/api/v1/sites?url=${encodeURIComponent(`https://a.example\\@${host()}/`)}`, {
      key: m.key,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/^url: The address .*backslash/);
  });

  it('is refused as a webhook endpoint, by the API and by the account page, and no webhook is stored', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const url = `https://hooks.example\\@${host()}/hook`;
    const api = await t.request('/api/v1/webhooks', { method: 'POST', key: m.key, json: { url } });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({
      error: { code: 'invalid_request', message: expect.stringMatching(/^url must not contain a backslash/) },
    });
    const { html } = await client.page('/account/webhooks');
    const once = /name="once" value="([0-9A-Za-z]{32})"/.exec(html)?.[1] ?? '';
    const page = await client.request('/account/webhooks', { form: { _csrf: csrfOf(html), once, url } });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('url must not contain a backslash');
    const hooks = await queryRows(t.deps.db, sql`SELECT 1 FROM webhooks WHERE account_id = ${m.accountId}::uuid`);
    expect(hooks).toEqual([]);
  });
});

describe('every other URL is stored, answered and compared as the parser reads it', () => {
  it.each([
    [
      'an upper-case scheme and host, no path',
      (h: string) => `HTTPS://${h.toUpperCase()}`,
      (h: string) => `https://${h}/`,
    ],
    [
      'a default port and dot segments',
      (h: string) => `https://${h}:443/a/./b/../c`,
      (h: string) => `https://${h}/a/c`,
    ],
    [
      'a full-width host',
      (h: string) =>
        `https://${[...h].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')}/x`,
      (h: string) => `https://${h}/x`,
    ],
    [
      'an ideographic full stop in the host',
      (h: string) => `https://${h.replace('.', '\u3002')}/x`,
      (h: string) => `https://${h}/x`,
    ],
    ['a percent-encoded host letter', (h: string) => `https://%73${h.slice(1)}/x`, (h: string) => `https://${h}/x`],
    ['a space-free non-ASCII path', (h: string) => `https://${h}/café`, (h: string) => `https://${h}/caf%C3%A9`],
  ])('%s', async (_label, typed, parsed) => {
    const m = await t.member('member');
    const h = host();
    const created = await submit(m.key, { name: uniqueName(), url: typed(h) });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect((await (await t.request(`/api/v1/sites/${body.site_id}`, { key: m.key })).json()).url).toBe(parsed(h));
    const [row] = await queryRows<{ url: string }>(
      t.deps.db,
      sql`SELECT url FROM sites WHERE id = ${body.site_id}::uuid`,
    );
    expect(row!.url).toBe(parsed(h));
    // Compared by that reading too: the typed and the parsed spelling are one site.
    const again = await submit((await t.member('member')).key, { name: uniqueName(), url: parsed(h) });
    expect(again.status).toBe(409);
  });
});

describe('a record stored as typed before the rule (migration 0032)', () => {
  it('is rewritten to the parsed form by the requested backfill, so the API, the page and /go/ publish what browsers open', async () => {
    const m = await t.member('member');
    const h = host();
    const created = await submit(m.key, { name: uniqueName('Typed'), url: `https://${h}/` });
    const { site_id } = await created.json();
    await moveSite(t.deps, site_id, 'live');
    const typed = `http://${h}:8000\\@evil.example/`;
    await queryRows(t.deps.db, sql`UPDATE sites SET url = ${typed} WHERE id = ${site_id}::uuid`);

    const report = await runRequestedKeyBackfill(t.deps.db, { force: true });
    expect(report!.urlsRewritten).toBeGreaterThanOrEqual(1);
    const parsed = `http://${h}:8000/@evil.example/`;
    const [row] = await queryRows<{ url: string; slug: string }>(
      t.deps.db,
      sql`SELECT url, slug FROM sites WHERE id = ${site_id}::uuid`,
    );
    expect(row!.url).toBe(parsed);
    expect((await (await t.request(`/api/v1/tools/${row!.slug}`)).json()).url).toBe(parsed);
    const go = await t.request(`/go/${row!.slug}`);
    expect(go.headers.get('location')).toBe(`${parsed}?ref=tooldir`);
    const page = await (await t.request(`/tools/${row!.slug}`)).text();
    expect(page).not.toContain('\\@evil.example');
    // A second run finds nothing more to rewrite.
    expect((await runRequestedKeyBackfill(t.deps.db, { force: true }))!.urlsRewritten).toBe(0);
  });
});
