// Duplicates catch what a person would call the same site or name (docs/decisions.md "Duplicates"),
// through the public surface: REST submit and reads, and MCP's get_site_status by URL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp, uniqueName } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from '../mcp/mcp-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });
/** A host no other test uses, without the scheme: each test spells it its own ways. */
const uniqueHost = () => `dup-${crypto.randomUUID().slice(0, 8)}.example`;
const suffix = () =>
  crypto
    .randomUUID()
    .slice(0, 8)
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);

describe('one site, however its URL is spelled', () => {
  it('http://x/app after https://www.x/%61pp/index.html is 409 already_submitted, with site_id only for the owner', async () => {
    const owner = await t.member('member');
    const other = await t.member('member');
    const stranger = await t.member('none'); // would take the payment path: the site record still wins
    const host = uniqueHost();
    const created = await submit(owner.key, { name: uniqueName(), url: `https://www.${host}/%61pp/index.html` });
    expect(created.status).toBe(201);
    const { site_id } = await created.json();

    const own = await submit(owner.key, { name: uniqueName(), url: `http://${host}/app` });
    expect(own.status).toBe(409);
    expect(await own.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String), site_id } });
    for (const key of [other.key, stranger.key]) {
      const theirs = await submit(key, {
        name: uniqueName(),
        url: `HTTP://${host.toUpperCase()}:80/%61%70%70/index.php?utm_source=x&mc_cid=1#top`,
      });
      expect(theirs.status).toBe(409);
      expect(await theirs.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
    }
  });

  it('repeated slashes and an index file in any case are the same site: //app, /app//INDEX.HTML, //app/Index.Php', async () => {
    const owner = await t.member('member');
    const other = await t.member('member');
    const host = uniqueHost();
    const created = await submit(owner.key, { name: uniqueName(), url: `https://${host}/app` });
    expect(created.status).toBe(201);
    for (const url of [
      `https://${host}//app`,
      `https://${host}/app//INDEX.HTML`,
      `http://${host}//app/Index.Php`,
      `https://${host}///app///`,
    ]) {
      const res = await submit(other.key, { name: uniqueName(), url });
      expect(res.status, url).toBe(409);
      expect(await res.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
    }
  });

  it('keeps the URL as submitted on the record', async () => {
    const m = await t.member('member');
    const url = `http://www.${uniqueHost()}/%61pp/index.html`;
    const { site_id } = await (await submit(m.key, { name: uniqueName(), url })).json();
    const detail = await (await t.request(`/api/v1/sites/${site_id}`, { key: m.key })).json();
    expect(detail.url).toBe(url);
  });

  it('a different path, port or query is a different site', async () => {
    const m = await t.member('memberFeature'); // 10 a day: room for all six
    const host = uniqueHost();
    for (const url of [
      `https://${host}/app`,
      `https://${host}/apps`,
      `https://${host}:8443/app`,
      `https://${host}/index.php?page=2`,
      `https://${host}/a%2Fb`,
      `https://${host}/a/b`,
    ]) {
      const res = await submit(m.key, { name: uniqueName(), url });
      expect(res.status, url).toBe(201);
    }
  });

  it('a pending record for https:// re-submitted as http:// by the same caller is the same record (payment_pending)', async () => {
    const m = await t.member('none');
    const host = uniqueHost();
    const first = await submit(m.key, { name: uniqueName(), url: `https://${host}/tool` });
    expect(first.status).toBe(402);
    const pending = await first.json();
    const again = await submit(m.key, { name: pending.name, url: `http://www.${host}/tool/index.html` });
    expect(again.status).toBe(402);
    const replaced = await again.json();
    expect(replaced).toMatchObject({
      site_id: pending.site_id,
      reason: 'payment_pending',
      url: `http://www.${host}/tool/index.html`,
    });
    const [row] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM pending_submissions WHERE account_id = ${m.accountId}`,
    );
    expect(Number(row!.n)).toBe(1);
  });

  it('GET /api/v1/sites?url= and MCP get_site_status find the site by any spelling of its URL', async () => {
    const m = await t.member('member');
    const host = uniqueHost();
    const { site_id } = await (await submit(m.key, { name: uniqueName(), url: `https://${host}/app` })).json();
    const variant = `http://www.${host}/%61pp/index.html`;
    const listed = await (await t.request(`/api/v1/sites?url=${encodeURIComponent(variant)}`, { key: m.key })).json();
    expect(listed.sites.map((s: { site_id: string }) => s.site_id)).toEqual([site_id]);
    const client = await connectMcp(t, { key: m.key });
    try {
      const status = await callTool(client, 'get_site_status', { url: variant });
      expect(status.isError).toBeFalsy();
      expect(resultJson(status)).toMatchObject({ site_id, url: `https://${host}/app` });
    } finally {
      await client.close();
    }
  });

  it('six concurrent submits of six spellings of one URL give one 201 and five 409', async () => {
    const m = await t.member('memberFeature');
    const host = uniqueHost();
    const spellings = [
      `https://${host}/app`,
      `http://${host}/app`,
      `https://www.${host}/app/`,
      `http://${host}/%61pp`,
      `https://${host}/app/index.html`,
      `http://${host}:80/app/index.php#x`,
    ];
    const results = await Promise.all(spellings.map((url) => submit(m.key, { name: uniqueName(), url })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});

describe('one name, however it is written', () => {
  it('Сanon Base with a Cyrillic С after Canon Base is 409 already_submitted', async () => {
    const owner = await t.member('member');
    const other = await t.member('member');
    const tail = suffix();
    const created = await submit(owner.key, { name: `Canon Base ${tail}`, url: `https://${uniqueHost()}` });
    expect(created.status).toBe(201);
    const { site_id } = await created.json();
    const own = await submit(owner.key, { name: `\u0421anon Base ${tail}`, url: `https://${uniqueHost()}` });
    expect(own.status).toBe(409);
    expect(await own.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String), site_id } });
    for (const name of [
      `\u0421\u0430n\u043en B\u0430se ${tail}`, // Cyrillic С, а, о, а
      `ＣＡＮＯＮ ＢＡＳＥ ${tail}`, // full-width letters
      `  canon   base ${tail} `, // case and spacing
      `C\u200banon Base ${tail}`, // a zero-width space inside
      `Canon Base ${tail}\u2800`, // a braille blank at the end
      `Canon\u2800Base\u3164 ${tail}`, // a braille blank as the space, a Hangul filler before a space
      `\u115fCanon\uffa0 Base ${tail}\u1160`, // the other Hangul fillers
      `C\u0430non\u3000Base ${tail}`, // Cyrillic а and an ideographic space
      `C\u0391N\u039fN BASE ${tail}`, // Greek Α and Ο in capitals
    ]) {
      const res = await submit(other.key, { name, url: `https://${uniqueHost()}` });
      expect(res.status, name).toBe(409);
      expect(await res.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
    }
  });

  // Issue 27: `Acme⠀Writer` was accepted beside `Acme Writer`. A filler draws a blank: it is the space.
  it.each([
    ['U+2800 braille blank', '\u2800'],
    ['U+3164 Hangul filler', '\u3164'],
    ['U+115F Hangul choseong filler', '\u115f'],
    ['U+1160 Hangul jungseong filler', '\u1160'],
    ['U+FFA0 half-width Hangul filler', '\uffa0'],
  ])(
    'a name with %s as its space is 409 already_submitted (REST and MCP), and nothing is stored',
    async (_label, filler) => {
      const owner = await t.member('member');
      const other = await t.member('member');
      const tail = suffix();
      expect((await submit(owner.key, { name: `Acme Writer ${tail}`, url: `https://${uniqueHost()}` })).status).toBe(
        201,
      );
      const res = await submit(other.key, {
        name: `Acme${filler}Writer${filler}${tail}`,
        url: `https://${uniqueHost()}`,
      });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
      const client = await connectMcp(t, { key: other.key });
      const viaMcp = await callTool(client, 'submit_site', {
        name: `Acme${filler}Writer ${tail}`,
        url: `https://${uniqueHost()}`,
      });
      await client.close();
      expect(viaMcp.isError).toBe(true);
      expect(resultJson(viaMcp)).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
      const stored = await queryRows(
        t.deps.db,
        sql`SELECT 1 FROM sites WHERE account_id = ${other.accountId}::uuid
      UNION ALL SELECT 1 FROM pending_submissions WHERE account_id = ${other.accountId}::uuid`,
      );
      expect(stored).toEqual([]);
      // A filler is a space, not nothing: the name without one is another name.
      expect((await submit(other.key, { name: `AcmeWriter ${tail}`, url: `https://${uniqueHost()}` })).status).toBe(
        201,
      );
    },
  );

  it('ﬁ and fi are one name; the record keeps the name as submitted', async () => {
    const m = await t.member('member');
    const name = `\ufb01le Tool ${suffix()}`;
    const created = await submit(m.key, { name, url: `https://${uniqueHost()}` });
    expect(created.status).toBe(201);
    const { site_id } = await created.json();
    expect((await (await t.request(`/api/v1/sites/${site_id}`, { key: m.key })).json()).name).toBe(name);
    expect((await submit(m.key, { name: name.replace('\ufb01', 'FI'), url: `https://${uniqueHost()}` })).status).toBe(
      409,
    );
  });

  it('two genuinely different names do not collide', async () => {
    const m = await t.member('memberFeature');
    const tail = suffix();
    for (const name of [
      `Modem ${tail}`,
      `Modern ${tail}`,
      `Cafe ${tail}`,
      `Café ${tail}`,
      `Tool1 ${tail}`,
      `Tooll ${tail}`,
    ]) {
      const res = await submit(m.key, { name, url: `https://${uniqueHost()}`, plan: 'basic' });
      expect(res.status, name).toBe(201);
    }
  });
});
