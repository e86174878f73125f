// The "Verified maker" mark: on the tool JSON, the site record, search (verified=true), the card and page, JSON-LD
// and MCP's search_tools; only for the owner's own proof of the listing's registrable domain, gone when it is removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { txtTable } from '../../../helpers/domain-fixtures';

const records: Record<string, string[]> = {};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records) } });
});
afterAll(() => t.close());

async function provenMaker(domain: string) {
  const m = await t.member();
  const { token } = await (await t.request('/api/v1/domains', { method: 'POST', key: m.key, json: { domain } })).json();
  records[`_tooldir.${domain}`] = [`tooldir-verification=${token}`];
  expect(
    (await t.request(`/api/v1/domains/${domain}/verify`, { method: 'POST', key: m.key, json: { method: 'dns' } }))
      .status,
  ).toBe(200);
  return m;
}

describe('the mark', () => {
  it('shows on every surface for a listing on the proven domain, and goes with the proof', async () => {
    const domain = `maker-${crypto.randomUUID().slice(0, 8)}.com`;
    const m = await provenMaker(domain);
    const name = uniqueName('Marked');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name, url: `https://app.${domain}/` });
    const other = await seedOwnedTool(t.deps.db, m.accountId, { name: uniqueName('Unmarked') });

    const detail = await (await t.request(`/api/v1/tools/${tool.slug}`)).json();
    expect(detail).toMatchObject({ verified_owner: true, verified_method: 'dns' });
    const unmarked = await (await t.request(`/api/v1/tools/${other.slug}`)).json();
    expect(unmarked).not.toHaveProperty('verified_owner');

    const record = await (await t.request(`/api/v1/sites/${tool.id}`, { key: m.key })).json();
    expect(record).toMatchObject({ verified_owner: true, verified_method: 'dns' });

    const search = await (await t.request('/api/v1/tools?verified=true&limit=50')).json();
    const slugs = search.tools.map((x: { slug: string }) => x.slug);
    expect(slugs).toContain(tool.slug);
    expect(slugs).not.toContain(other.slug);
    expect(search.tools.every((x: { verified_owner?: boolean }) => x.verified_owner === true)).toBe(true);
    const byName = await (await t.request(`/api/v1/tools?q=${encodeURIComponent(name)}&verified=true`)).json();
    expect(byName.tools.map((x: { slug: string }) => x.slug)).toEqual([tool.slug]);

    const page = await (await t.request(`/tools/${tool.slug}`)).text();
    expect(page).toContain('Verified maker');
    expect(page).toContain('"name":"verifiedMaker"');

    expect((await t.request(`/api/v1/domains/${domain}`, { method: 'DELETE', key: m.key })).status).toBe(204);
    expect(await (await t.request(`/api/v1/tools/${tool.slug}`)).json()).not.toHaveProperty('verified_owner');
  });

  it("never marks a listing for another account's proof, nor for a proof of a sibling under a public suffix", async () => {
    const domain = `team-${crypto.randomUUID().slice(0, 8)}.com`;
    await provenMaker(domain);
    const stranger = await t.member();
    const tool = await seedOwnedTool(t.deps.db, stranger.accountId, {
      name: uniqueName('Theirs'),
      url: `https://${domain}/`,
    });
    expect(await (await t.request(`/api/v1/tools/${tool.slug}`)).json()).not.toHaveProperty('verified_owner');

    const pages = await provenMaker(`alice-${crypto.randomUUID().slice(0, 6)}.github.io`);
    const sibling = await seedOwnedTool(t.deps.db, pages.accountId, {
      name: uniqueName('Bob'),
      url: 'https://bob.github.io/',
    });
    expect(await (await t.request(`/api/v1/tools/${sibling.slug}`)).json()).not.toHaveProperty('verified_owner');
  });

  it('refuses verified=maybe with 400', async () => {
    const res = await t.request('/api/v1/tools?verified=maybe');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_request');
  });
});
