// The change feed (docs/change-feed.md): GET /api/v1/changes across what happens to a listing, through the public
// surface where there is one: published by an editor, an approved edit, a rename, withdrawal by its owner; hiding by
// the daily check, its restoring and a category change are written as their jobs write them (one UPDATE of sites, one
// INSERT of site_categories). Paging, the retention sweep and bad cursors. PGlite.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { ADMIN_TOKEN, uniqueName } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { editCalls, useEditHarness } from '../sites/site-edits-harness';

const h = useEditHarness();
const { edit, review } = editCalls(h);

let address = 0;
/** Each read from its own address, so the public limit never gets in the way. */
const get = (path: string, headers: Record<string, string> = {}) =>
  h.t.request(path, { headers: { 'cf-connecting-ip': `203.0.113.${++address % 250}`, ...headers } });

interface Entry {
  cursor: string;
  kind: string;
  site_id: string;
  slug: string | null;
  previous_slug: string | null;
  changed_at: string;
  tool: null | {
    site_id: string;
    slug: string;
    name: string;
    description: string | null;
    categories: { slug: string }[];
  };
}

async function page(
  since: string | undefined,
  limit?: number,
): Promise<{ changes: Entry[]; next_cursor: string; has_more: boolean }> {
  const query = [since === undefined ? '' : `since=${encodeURIComponent(since)}`, limit ? `limit=${limit}` : '']
    .filter(Boolean)
    .join('&');
  const res = await get(`/api/v1/changes?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Every entry after `since`, following next_cursor with pages of `limit`; and the cursor it ended at. */
async function follow(since: string | undefined, limit = 100): Promise<{ entries: Entry[]; cursor: string }> {
  const entries: Entry[] = [];
  let cursor = since;
  for (let i = 0; i < 1000; i++) {
    const p = await page(cursor, limit);
    entries.push(...p.changes);
    expect(p.changes.length).toBeLessThanOrEqual(limit);
    cursor = p.next_cursor;
    if (!p.has_more) break;
  }
  return { entries, cursor: cursor! };
}

const now = async () => (await page('now')).next_cursor;
const of = (entries: Entry[], siteId: string) => entries.filter((e) => e.site_id === siteId);
const kinds = (entries: Entry[]) => entries.map((e) => e.kind);

describe('GET /api/v1/changes', () => {
  it('follows a listing from publishing to withdrawal: appeared, changed (edit, rename, category), left', async () => {
    const start = await now();
    const name = uniqueName('Feedwright');
    const tool = await seedOwnedTool(h.t.deps.db, h.member.accountId, { name, status: 'pending_review' });
    const other = await seedOwnedTool(h.t.deps.db, h.member.accountId, {
      name: uniqueName('Unlisted Other'),
      status: 'pending_review',
    });

    // Nothing public happened yet: a submission in review is not in the feed.
    expect(of((await follow(start)).entries, tool.id)).toEqual([]);

    const published = await h.t.request(`/api/v1/admin/sites/${tool.id}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'approve', categories: ['writing'] },
    });
    expect(published.status, await published.clone().text()).toBe(200);
    let seen = await follow(start);
    expect(kinds(of(seen.entries, tool.id))).toEqual(['appeared']);
    const appeared = of(seen.entries, tool.id)[0]!;
    expect(appeared.tool).toMatchObject({ site_id: tool.id, name, categories: [{ slug: 'writing' }] });
    expect(appeared.slug).toBe(appeared.tool!.slug);

    // An approved edit of the description of the live listing.
    const filed = await (await edit(tool.id, { description: 'A description the editor approved.' })).json();
    expect((await review(filed.pending_edit.edit_id, { decision: 'approve' })).status).toBe(200);
    let next = await follow(seen.cursor);
    expect(kinds(of(next.entries, tool.id))).toEqual(['changed']);
    expect(next.entries[0]!.tool!.description).toBe('A description the editor approved.');
    expect(next.entries[0]!.previous_slug).toBeNull();

    // A rename: the entry names the new slug and the old one.
    const oldSlug = appeared.slug;
    const newName = uniqueName('Inkfeed Pro');
    const renamed = await (await edit(tool.id, { name: newName })).json();
    expect((await review(renamed.pending_edit.edit_id, { decision: 'approve' })).status).toBe(200);
    next = await follow(next.cursor);
    const rename = of(next.entries, tool.id);
    expect(kinds(rename)).toEqual(['changed']);
    expect(rename[0]).toMatchObject({ previous_slug: oldSlug, tool: { name: newName } });
    expect(rename[0]!.slug).not.toBe(oldSlug);
    expect(rename[0]!.slug).toBe(rename[0]!.tool!.slug);

    // A category added (as review writes it: a row of site_categories).
    await queryRows(
      h.t.deps.db,
      sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${tool.id}::uuid, 'marketing')`,
    );
    next = await follow(next.cursor);
    expect(kinds(of(next.entries, tool.id))).toEqual(['changed']);
    expect(next.entries[0]!.tool!.categories.map((c) => c.slug).sort()).toEqual(['marketing', 'writing']);

    // Hidden by the daily check, then restored by a passing one (the health job's writes).
    await queryRows(h.t.deps.db, sql`UPDATE sites SET health_hidden = true WHERE id = ${tool.id}::uuid`);
    next = await follow(next.cursor);
    expect(of(next.entries, tool.id).map((e) => [e.kind, e.tool])).toEqual([['left', null]]);
    await queryRows(h.t.deps.db, sql`UPDATE sites SET health_hidden = false WHERE id = ${tool.id}::uuid`);
    next = await follow(next.cursor);
    expect(kinds(of(next.entries, tool.id))).toEqual(['appeared']);

    // Writes that change nothing public are not changes: a crawl counter, a same-value update, a listing in review.
    await queryRows(
      h.t.deps.db,
      sql`UPDATE sites SET crawl_attempts = crawl_attempts + 1, name = name WHERE id = ${tool.id}::uuid`,
    );
    await queryRows(
      h.t.deps.db,
      sql`UPDATE sites SET name = ${uniqueName('Renamed In Review')} WHERE id = ${other.id}::uuid`,
    );
    expect((await follow(next.cursor)).entries).toEqual([]);

    // Withdrawn by its owner.
    const withdrawn = await h.t.request(`/api/v1/sites/${tool.id}`, { method: 'DELETE', key: h.member.key });
    expect(withdrawn.status).toBe(200);
    next = await follow(next.cursor);
    expect(of(next.entries, tool.id).map((e) => [e.kind, e.slug, e.tool])).toEqual([['left', rename[0]!.slug, null]]);

    // From the start, the whole story in order; earlier entries carry the listing as it is now (gone: null).
    const story = of((await follow(start)).entries, tool.id);
    expect(kinds(story)).toEqual(['appeared', 'changed', 'changed', 'changed', 'left', 'appeared', 'left']);
    expect(story.every((e) => e.tool === null)).toBe(true);
  });

  it('the Verified mark and the MCP probe change a listing; their bookkeeping alone does not', async () => {
    const host = `marked-${crypto.randomUUID().slice(0, 8)}.example`;
    const tool = await seedOwnedTool(h.t.deps.db, h.member.accountId, {
      name: uniqueName('Marked'),
      url: `https://${host}/`,
    });
    let cursor = await now();
    const step = async () => {
      const next = await follow(cursor);
      cursor = next.cursor;
      return of(next.entries, tool.id);
    };
    const proof = crypto.randomUUID();
    await queryRows(
      h.t.deps.db,
      sql`INSERT INTO domain_proofs (id, account_id, domain, token, status, method, verified_at, checked_at)
          VALUES (${proof}::uuid, ${h.member.accountId}::uuid, ${host}, 'token', 'verified', 'dns', now(), now())`,
    );
    const marked = await step();
    expect(marked.map((e) => [e.kind, (e.tool as { verified_owner?: true } | null)?.verified_owner])).toEqual([
      ['changed', true],
    ]);
    // The monthly re-check passing again changes no mark.
    await queryRows(h.t.deps.db, sql`UPDATE domain_proofs SET checked_at = now() WHERE id = ${proof}::uuid`);
    expect(await step()).toEqual([]);
    await queryRows(h.t.deps.db, sql`DELETE FROM domain_proofs WHERE id = ${proof}::uuid`);
    const unmarked = await step();
    expect(unmarked.map((e) => [e.kind, (e.tool as { verified_owner?: true } | null)?.verified_owner])).toEqual([
      ['changed', undefined],
    ]);

    // The MCP server: the owner names it (a public field), its probe's first record, then a change of what it found;
    // a probe that found the same is none. Each entry carries the tool record's mcp object as the detail read has it.
    const mcpOfEntry = (entries: Awaited<ReturnType<typeof step>>) =>
      entries.map((e) => (e.tool as { mcp?: { url: string; status: string } | null } | null)?.mcp);
    await queryRows(h.t.deps.db, sql`UPDATE sites SET mcp_url = ${`https://${host}/mcp`} WHERE id = ${tool.id}::uuid`);
    expect(mcpOfEntry(await step())).toEqual([
      expect.objectContaining({ url: `https://${host}/mcp`, status: 'unchecked' }),
    ]);
    await queryRows(
      h.t.deps.db,
      sql`INSERT INTO site_mcp (site_id, url) VALUES (${tool.id}::uuid, ${`https://${host}/mcp`})`,
    );
    expect(kinds(await step())).toEqual(['changed']);
    await queryRows(h.t.deps.db, sql`UPDATE site_mcp SET checked_at = now() WHERE site_id = ${tool.id}::uuid`);
    expect(await step()).toEqual([]);
    await queryRows(
      h.t.deps.db,
      sql`UPDATE site_mcp SET status = 'reachable', changed_at = now() + interval '1 second' WHERE site_id = ${tool.id}::uuid`,
    );
    const probed = await step();
    expect(kinds(probed)).toEqual(['changed']);
    expect(mcpOfEntry(probed)).toEqual([expect.objectContaining({ status: 'reachable' })]);
  });

  it('pages with a small limit see every entry once, in the order of one big page', async () => {
    const start = await now();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await seedOwnedTool(h.t.deps.db, h.member.accountId, { name: uniqueName(`Paged ${i}`) })).id);
    await queryRows(
      h.t.deps.db,
      sql`UPDATE sites SET is_feature = true WHERE id IN (${sql.join(
        ids.slice(0, 3).map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    const all = await page(start, 500);
    expect(all.has_more).toBe(false);
    expect(all.changes).toHaveLength(10);
    const small = await follow(start, 3);
    expect(small.entries.map((e) => e.cursor)).toEqual(all.changes.map((e) => e.cursor));
    expect(new Set(small.entries.map((e) => e.cursor)).size).toBe(10);
    expect(small.cursor).toBe(all.next_cursor);
    expect(kinds(small.entries)).toEqual([...Array(7).fill('appeared'), 'changed', 'changed', 'changed']);
    // Nothing new: the same cursor back, no entries.
    expect(await page(all.next_cursor)).toEqual({ changes: [], next_cursor: all.next_cursor, has_more: false });
  });

  it('is cacheable: Cache-Control, an ETag and a 304 for it', async () => {
    const res = await get('/api/v1/changes?since=now');
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get('/api/v1/changes?since=now', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
  });

  it('refuses a malformed cursor, one from the future and one older than the feed keeps, with a 400 saying which', async () => {
    const bad = async (since: string, says: RegExp) => {
      const res = await get(`/api/v1/changes?since=${encodeURIComponent(since)}`);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toMatch(says);
      expect(body.error.message).toContain('GET /api/v1/tools');
    };
    for (const since of ['abc', '1-2-3', '-1-2', '01-2', '1.5-2', '', '99999999999999999999999-1', 'x'.repeat(100)])
      await bad(since, /malformed/);
    await bad('99999999999-1', /future/);
    const current = await now();
    await bad(`${current.split('-')[0]}-999999999999`, /future/);
    const limit = await get('/api/v1/changes?limit=0');
    expect(limit.status).toBe(400);

    // Entries past the retention go with the sweep; a cursor from before them is then too old.
    const before = await now();
    const old = await seedOwnedTool(h.t.deps.db, h.member.accountId, { name: uniqueName('Aged') });
    await queryRows(
      h.t.deps.db,
      sql`UPDATE listing_changes SET changed_at = now() - interval '91 days' WHERE site_id = ${old.id}::uuid`,
    );
    const sweep = await h.t.request('/api/jobs/sweep', { method: 'POST', key: ADMIN_TOKEN, json: {} });
    expect(sweep.status).toBe(200);
    expect((await sweep.json()).prunedChanges).toBeGreaterThanOrEqual(1);
    await bad(before, /too old/);
    // Without since, the feed starts after what was deleted: the aged entry is gone, a later one is there.
    const later = await seedOwnedTool(h.t.deps.db, h.member.accountId, { name: uniqueName('Fresh') });
    const fromOldest = (await follow(undefined)).entries;
    expect(of(fromOldest, old.id)).toEqual([]);
    expect(kinds(of(fromOldest, later.id))).toEqual(['appeared']);
  });
});
