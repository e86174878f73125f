// Renames keep their links (docs/pipeline.md "Renames"): an approved edit that changes the name gives the tool the
// slug of its new name; the old slug answers 301 for the page, GET /api/v1/tools/{slug}, /go/ and the badge; badge
// loads before and after still count for the tool; a slug is never given to another tool. Through app.request.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { slugify } from '../../../../src/pipeline/slug';
import { uniqueName } from '../../../helpers/test-app';
import { only, statsHarness } from '../../../helpers/stats-harness';
import { editCalls, useEditHarness } from './site-edits-harness';
import { callTool, connectMcp } from '../../mcp/mcp-client';

const h = useEditHarness();
const { edit, review, record, ownTool } = editCalls(h);

let address = 0;
const get = (path: string) => h.t.request(path, { headers: { 'cf-connecting-ip': `203.0.113.${++address % 250}` } });

/** Files and approves a rename; answers the tool's new slug (read off its live_url). */
async function rename(siteId: string, name: string): Promise<string> {
  const filed = await (await edit(siteId, { name })).json();
  const approved = await review(filed.pending_edit.edit_id, { decision: 'approve' });
  expect(approved.status).toBe(200);
  return (await record(siteId)).live_url.split('/tools/')[1];
}

describe('an approved rename', () => {
  it('moves the tool to the slug of its new name, and the old slug answers 301 on every address', async () => {
    const tool = await ownTool(uniqueName('Quillsmith'));
    const newName = uniqueName('Inkwright Pro');
    const slug = await rename(tool.id, newName);
    expect(slug).toBe(slugify(newName));

    const page = await get(`/tools/${tool.slug}`);
    expect([page.status, page.headers.get('location')]).toEqual([301, `/tools/${slug}`]);
    const json = await get(`/api/v1/tools/${tool.slug}`);
    expect([json.status, json.headers.get('location')]).toEqual([301, `/api/v1/tools/${slug}`]);
    const go = await get(`/go/${tool.slug}`);
    expect([go.status, go.headers.get('location')]).toEqual([301, `/go/${slug}`]);
    const badge = await get(`/badge/${tool.slug}.svg?theme=dark`);
    expect([badge.status, badge.headers.get('location')]).toEqual([301, `/badge/${slug}.svg?theme=dark`]);

    // Where they lead is the tool under its new name.
    expect((await get(`/tools/${slug}`)).status).toBe(200);
    expect(await (await get(`/api/v1/tools/${slug}`)).json()).toMatchObject({ name: newName, slug });
    expect((await get(`/go/${slug}`)).status).toBe(302);
    expect(await (await get(`/badge/${slug}.svg?theme=dark`)).text()).toContain('<svg');
  });

  it('MCP get_tool answers an old slug with the tool under its current slug', async () => {
    const tool = await ownTool(uniqueName('Mcp Old'));
    const slug = await rename(tool.id, uniqueName('Mcp New'));
    const client = await connectMcp(h.t);
    const result = await callTool(client, 'get_tool', { slug: tool.slug });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ site_id: tool.id, slug });
    await client.close();
  });

  it('keeps the slug when the new name has the same one (a change of case), and can take its own old slug back', async () => {
    const tool = await ownTool(uniqueName('Casey Tool'));
    const first = await rename(tool.id, uniqueName('Lower Case'));
    const name = (await record(tool.id)).name as string;
    expect(await rename(tool.id, name.toUpperCase())).toBe(first);
    // Renamed to a name whose slug is its very first one: that slug is its own, so it comes back.
    expect(await rename(tool.id, tool.slug.replaceAll('-', ' '))).toBe(tool.slug);
    expect((await get(`/tools/${tool.slug}`)).status).toBe(200);
    expect((await get(`/tools/${first}`)).headers.get('location')).toBe(`/tools/${tool.slug}`);
  });

  it('never gives a slug another tool once had: the next free one instead', async () => {
    const older = await ownTool(uniqueName('Holder'));
    await rename(older.id, uniqueName('Holder Renamed'));
    // A second tool renamed to a name whose slug is the first tool's old one.
    const other = await ownTool(uniqueName('Other'));
    const slug = await rename(other.id, older.slug.replaceAll('-', ' '));
    expect(slug).toBe(`${older.slug}-2`);
    // The old address still leads to the first tool.
    expect((await get(`/tools/${older.slug}`)).headers.get('location')).not.toBe(`/tools/${slug}`);
    const [owner] = await queryRows<{ site_id: string }>(
      h.t.deps.db,
      sql`SELECT site_id FROM site_slugs WHERE slug = ${older.slug}`,
    );
    expect(owner!.site_id).toBe(older.id);
  });

  it('a change of description alone keeps the slug', async () => {
    const tool = await ownTool(uniqueName('Steady'));
    const filed = await (await edit(tool.id, { description: 'A new description.' })).json();
    await review(filed.pending_edit.edit_id, { decision: 'approve' });
    expect((await record(tool.id)).live_url).toBe(`http://tooldir.test/tools/${tool.slug}`);
    expect((await get(`/tools/${tool.slug}`)).status).toBe(200);
  });

  it('is never served from the page cache under the old slug', async () => {
    const tool = await ownTool(uniqueName('Cached Name'));
    expect((await get(`/tools/${tool.slug}`)).headers.get('x-cache')).toBe('miss');
    expect((await get(`/tools/${tool.slug}`)).headers.get('x-cache')).toBe('hit');
    const slug = await rename(tool.id, uniqueName('Fresh Name'));
    const old = await get(`/tools/${tool.slug}`);
    expect([old.status, old.headers.get('location'), old.headers.get('x-cache')]).toEqual([
      301,
      `/tools/${slug}`,
      null,
    ]);
  });
});

describe('statistics across a rename', () => {
  it('badge loads before and after the rename, and through the old embed, all count for the tool', async () => {
    const tool = await ownTool(uniqueName('Counted Badge'));
    const stats = statsHarness(h.t);
    // Before: a load under the old slug, counted under it.
    expect(
      (await stats.visit(`/badge/${tool.slug}.svg`, { headers: { 'cf-connecting-ip': '198.18.0.1' } })).status,
    ).toBe(200);
    const slug = await rename(tool.id, uniqueName('Counted Badge Renamed'));
    // After: an old embed redirects (not counted itself), and the load it leads to is counted under the new slug.
    const redirect = await stats.visit(`/badge/${tool.slug}.svg`, { headers: { 'cf-connecting-ip': '198.18.0.2' } });
    expect(redirect.status).toBe(301);
    const followed = await stats.visit(redirect.headers.get('location')!, {
      headers: { 'cf-connecting-ip': '198.18.0.2' },
    });
    expect(followed.status).toBe(200);
    expect(slug).not.toBe(tool.slug);
    const body = await stats.statsOf(tool.id, h.member.key);
    expect(body.totals).toMatchObject(only({ badge_loads: 2 }));
  });
});
