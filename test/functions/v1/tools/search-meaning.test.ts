import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../../helpers/test-app';
import { seedTools } from '../../../helpers/live-tools';
import { callTool, connectMcp, resultJson } from '../../mcp/mcp-client';

// Search finds what readers mean (issue 32), through GET /api/v1/tools, MCP search_tools and the search page: category
// names and synonyms (editable by operators) find their tools below every text match; typos in names and descriptions
// are corrected (one edit for 4–7 letters, two from 8) and the answer says so; a typo never outranks an exact match;
// an empty answer offers the closest categories and the newest tools. Each test uses words of its own.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
const ip = () => `10.32.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
interface Page {
  tools: Array<{ name: string; slug: string }>;
  next_cursor: string | null;
  suggestion: { query: string; corrected_from: string } | null;
  closest_categories: Array<{ slug: string; name: string; tool_count: number }>;
  newest_tools: Array<{ name: string; slug: string }>;
}
const search = (params: Record<string, string>) =>
  t.request(`/api/v1/tools?${new URLSearchParams(params)}`, { headers: { 'cf-connecting-ip': ip() } });
async function page(params: Record<string, string>): Promise<Page> {
  const res = await search(params);
  expect(res.status, JSON.stringify(params)).toBe(200);
  return (await res.json()) as Page;
}
const names = async (q: string, extra: Record<string, string> = {}) =>
  (await page({ q, ...extra })).tools.map((tool) => tool.name);
const admin = (path: string, method: string, json: unknown) =>
  t.request(path, { method, json, key: ADMIN_TOKEN, headers: { 'cf-connecting-ip': ip() } });
const unique = () => crypto.randomUUID().slice(0, 6);

describe('category names and synonyms', () => {
  it('find the category’s tools, below every name and description match, and follow the operator’s edits at once', async () => {
    const slug = `flarnish-${unique()}`;
    expect(
      (await admin('/api/v1/admin/categories', 'POST', { slug, name: 'Flarnish Kits', synonyms: ['glimbotry'] }))
        .status,
    ).toBe(201);
    const base = Date.now() - 60_000;
    await seedTools(t.deps.db, [
      { name: 'Flarnish Pro', description: 'Unrelated words.', categories: ['code'], publishedAt: new Date(base) },
      { name: 'Plainer', description: 'Sorts your flarnish collection.', publishedAt: new Date(base + 1000) },
      { name: 'Quietbox', description: 'Says nothing of it.', categories: [slug], publishedAt: new Date(base + 2000) },
      { name: 'Loudbox', description: 'Says nothing either.', categories: [slug], publishedAt: new Date(base + 3000) },
    ]);
    // Name, then description, then the category's tools (newest first), whatever their age.
    expect(await names('flarnish')).toEqual(['Flarnish Pro', 'Plainer', 'Loudbox', 'Quietbox']);
    // Stemmed like every word: "kit" finds the category named "Kits".
    expect(await names('kit')).toEqual(['Loudbox', 'Quietbox']);
    expect(await names('glimbotry')).toEqual(['Loudbox', 'Quietbox']);
    // Every word must match somewhere: a category word and a description word together.
    expect(await names('glimbotry either')).toEqual(['Loudbox']);
    // Within a category filter the category words still count.
    expect(await names('flarnish', { category: slug })).toEqual(['Loudbox', 'Quietbox']);

    // An operator's new synonym finds the tools at once (no cached answer survives the edit); a removed one no more.
    expect(await names('wobblixer')).toEqual([]);
    expect((await admin(`/api/v1/admin/categories/${slug}`, 'PATCH', { synonyms: ['wobblixer'] })).status).toBe(200);
    expect(await names('wobblixer')).toEqual(['Loudbox', 'Quietbox']);
    expect(await names('glimbotry')).toEqual([]);
    // A renamed category is found by its new name's words only.
    expect((await admin(`/api/v1/admin/categories/${slug}`, 'PATCH', { name: 'Zentrox' })).status).toBe(200);
    expect(await names('zentrox')).toEqual(['Loudbox', 'Quietbox']);
    expect(await names('kit')).toEqual([]);
  });

  it('a typo of a category word finds the category, and says what it searched', async () => {
    const slug = `vondel-${unique()}`;
    await admin('/api/v1/admin/categories', 'POST', { slug, name: 'Vondelgraphy' });
    await seedTools(t.deps.db, [{ name: 'Inner Tool', description: 'Nothing to find here.', categories: [slug] }]);
    const answer = await page({ q: 'vondelgrahpy' });
    expect(answer.tools.map((tool) => tool.name)).toEqual(['Inner Tool']);
    expect(answer.suggestion).toEqual({ query: 'vondelgraphy', corrected_from: 'vondelgrahpy' });
  });
});

describe('typos', () => {
  it('reach description words: one edit for 4 to 7 letters, two from 8, a swap of neighbours being one', async () => {
    await seedTools(t.deps.db, [
      { name: 'Alpha Tool', description: 'Makes blorptastic summaries of zenqa files.' },
      { name: 'Beta Tool', description: 'Nothing alike.' },
    ]);
    const found = async (q: string) => (await page({ q })).tools.map((tool) => tool.name).includes('Alpha Tool');
    // 11 letters: one edit, two edits, but not three.
    expect(await found('blorptastik')).toBe(true);
    expect(await found('blorbtastik')).toBe(true);
    expect(await found('blorbtaztik')).toBe(false);
    // 5 letters: one edit (a replaced letter, a dropped one, an added one, a swap), not two.
    for (const typo of ['zenqo', 'zenq', 'zennqa', 'zneqa']) expect(await found(typo), typo).toBe(true);
    expect(await found('zanqo')).toBe(false);
    // Under 4 letters a word is never corrected.
    expect(await found('zeq')).toBe(false);
    expect((await page({ q: 'summaries blorptastik' })).suggestion).toEqual({
      query: 'summaries blorptastic',
      corrected_from: 'summaries blorptastik',
    });
  });

  it('find a word within the edits at every length the lookups split on (drizzle/0049: deletions, then trigrams past 12 letters)', async () => {
    await seedTools(t.deps.db, [
      {
        name: 'Gamma Tool',
        description: 'Zorkle reads quantumflorxes, hyperblargonicity and snorptastically long words.',
      },
      { name: 'Delta Tool', description: 'Nothing alike either.' },
    ]);
    const corrected = async (q: string) => {
      const answer = await page({ q });
      return answer.tools.some((tool) => tool.name === 'Gamma Tool') ? answer.suggestion?.query : undefined;
    };
    // 8 letters, two added to a word of 6: found by the word itself among the typed word's two-removal strings.
    expect(await corrected('zorkklee')).toBe('zorkle');
    // 12 letters, two dropped from a word of 14: the longest word kept under two removals.
    expect(await corrected('quantmflrxes')).toBe('quantumflorxes');
    // 15 letters, two dropped from a word of 17: the trigram lookup.
    expect(await corrected('hyprblargonicty')).toBe('hyperblargonicity');
    // 14 letters, one dropped from a word of 15 (kept under one removal only).
    expect(await corrected('snorptasticaly')).toBe('snorptastically');
    // Three edits are never corrected, at any length.
    expect(await corrected('quantmflrxs')).toBeUndefined();
    expect(await corrected('hyprblrgonicty')).toBeUndefined();
  });

  it('never rank above an exact match: a word some tool has is searched as typed', async () => {
    await seedTools(t.deps.db, [
      { name: 'Typed Once', description: 'Keeps quibbling notes.' },
      { name: 'Common One', description: 'Keeps qibbling notes.' },
      { name: 'Common Two', description: 'Keeps qibbling notes too.' },
    ]);
    // "quibbling" is one edit from "qibbling", which more tools hold; the exact word wins and nothing is corrected.
    const answer = await page({ q: 'quibbling' });
    expect(answer.tools.map((tool) => tool.name)).toEqual(['Typed Once']);
    expect(answer.suggestion).toBeNull();
  });

  it('a corrected answer names its correction on every page; its cursor reads the same correction; correct=false searches as typed', async () => {
    await seedTools(
      t.deps.db,
      Array.from({ length: 5 }, (_, i) => ({ name: `Grindlewort ${i}`, description: 'Makes fizzlepop charts.' })),
    );
    const all = await page({ q: 'fizzlepoop', limit: '50' });
    expect(all.tools).toHaveLength(5);
    expect(all.suggestion).toEqual({ query: 'fizzlepop', corrected_from: 'fizzlepoop' });
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const p: Page = await page({ q: 'fizzlepoop', limit: '2', ...(cursor && { cursor }) });
      expect(p.suggestion).toEqual({ query: 'fizzlepop', corrected_from: 'fizzlepoop' });
      paged.push(...p.tools.map((tool) => tool.name));
      cursor = p.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.tools.map((tool) => tool.name));

    const typed = await page({ q: 'fizzlepoop', correct: 'false' });
    expect(typed).toMatchObject({ tools: [], suggestion: null, next_cursor: null });
    expect(typed.newest_tools.length).toBeGreaterThan(0);
    // A corrected search's cursor does not read the words as typed.
    const first = await page({ q: 'fizzlepoop', limit: '2' });
    const mixed = await search({ q: 'fizzlepoop', limit: '2', correct: 'false', cursor: first.next_cursor! });
    expect(mixed.status).toBe(400);
    expect(((await mixed.json()) as { error: { code: string; message: string } }).error.message).toMatch(/^cursor/);
  });

  it('refuses a correct that is not true or false, naming it, and answers nothing else', async () => {
    for (const value of ['yes', '1', '', 'TRUE']) {
      const res = await search({ q: 'anything', correct: value });
      expect(res.status, value).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^correct/) });
    }
  });
});

describe('an empty answer', () => {
  it('offers the categories closest to the words, then the largest, and the newest tools', async () => {
    await seedTools(t.deps.db, [{ name: 'Sound Thing', description: 'Plays.', categories: ['audio'] }]);
    const newest = await page({ q: '', limit: '6' });
    // "podcastzzz" is three edits from the Audio synonym "podcast": nothing is corrected, but Audio is the closest.
    const answer = await page({ q: 'podcastzzz' });
    expect(answer).toMatchObject({ tools: [], suggestion: null, next_cursor: null });
    expect(answer.closest_categories[0]).toMatchObject({
      slug: 'audio',
      name: 'Audio',
      tool_count: expect.any(Number),
    });
    expect(answer.closest_categories.length).toBeLessThanOrEqual(3);
    for (const c of answer.closest_categories) expect(c.tool_count).toBeGreaterThan(0);
    expect(answer.newest_tools.map((tool) => tool.slug)).toEqual(newest.tools.map((tool) => tool.slug));
    // A query of punctuation alone has no words, and gets the same offer.
    const bare = await page({ q: '!!!' });
    expect(bare.tools).toEqual([]);
    expect(bare.newest_tools.length).toBeGreaterThan(0);
    // An answer with results offers nothing.
    expect(await page({ q: 'sound thing' })).toMatchObject({
      closest_categories: [],
      newest_tools: [],
      suggestion: null,
    });
  });
});

describe('MCP search_tools', () => {
  it('carries the suggestion and the offers in its structured result, and takes correct', async () => {
    await seedTools(t.deps.db, [{ name: 'Mcpworthy', description: 'Drafts snorkelplan memos.' }]);
    const client = await connectMcp(t, { ip: ip() });
    try {
      const corrected = await callTool(client, 'search_tools', { query: 'snorkelpaln' });
      expect(corrected.isError).toBeFalsy();
      const result = corrected.structuredContent as unknown as Page;
      expect(result.tools.map((tool) => tool.name)).toEqual(['Mcpworthy']);
      expect(result.suggestion).toEqual({ query: 'snorkelplan', corrected_from: 'snorkelpaln' });
      expect(resultJson(corrected)).toEqual(corrected.structuredContent);
      const typed = (await callTool(client, 'search_tools', { query: 'snorkelpaln', correct: false }))
        .structuredContent as unknown as Page;
      expect(typed).toMatchObject({ tools: [], suggestion: null });
      expect(typed.newest_tools.length).toBeGreaterThan(0);
      const bad = await callTool(client, 'search_tools', { query: 'x', correct: 'yes' });
      expect(bad.isError).toBe(true);
      expect(resultJson(bad)).toEqual({
        error: { code: 'invalid_request', message: expect.stringMatching(/^correct/) },
      });
    } finally {
      await client.close();
    }
  });
});

describe('the search page', () => {
  it('says what it searched instead, links both ways, and offers categories and tools when nothing matches', async () => {
    await seedTools(t.deps.db, [
      { name: 'Pagewright', description: 'Writes crumblewick notes.', categories: ['writing'] },
    ]);
    const res = await t.request('/?q=crumblewik', { headers: { 'cf-connecting-ip': ip() } });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('Showing results for <a href="/?q=crumblewick"><strong>crumblewick</strong></a>.');
    expect(body).toContain('Search instead for <a href="/?q=crumblewik&amp;correct=false">crumblewik</a>.');
    expect(body).toContain('Pagewright');

    const typed = await (
      await t.request('/?q=crumblewik&correct=false', { headers: { 'cf-connecting-ip': ip() } })
    ).text();
    expect(typed).toContain('No tool matches your search.');
    expect(typed).not.toContain('Showing results for');
    expect(typed).toMatch(
      /<nav aria-label="Closest categories"><ul class="chips nav"><li><a href="\/categories\/[a-z-]+">/,
    );
    expect(typed).toContain('<h2>Newest tools</h2>');

    // The words as typed are escaped wherever the page repeats them.
    const hostile = await (
      await t.request(`/?q=${encodeURIComponent('<b>crumblewik')}`, { headers: { 'cf-connecting-ip': ip() } })
    ).text();
    expect(hostile).not.toContain('<b>crumblewik');
    expect(hostile).toContain('&lt;b&gt;crumblewik');
  });
});
