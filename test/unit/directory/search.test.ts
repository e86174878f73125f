import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools, type SeededTool } from '../../helpers/live-tools';
import { searchTools, type SearchPage } from '../../../src/directory/search';
import { getTool } from '../../../src/directory/get-tool';
import { encodeCursor } from '../../../src/directory/search-cursor';

// The search verb over a real (PGlite) database. Each test searches words unique to its own seeds, so the
// tests stay independent although they share one database.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const search = (query: string | undefined, limit?: number, cursor?: string) =>
  searchTools({ deps: t.deps, input: { query, limit, cursor } });

describe('searchTools relevance', () => {
  it('ranks a name match above a description-only match, and featured/sponsored flags do not bury it', async () => {
    await seedTools(t.deps.db, [
      { name: 'Quillmark Studio', description: 'Drafts essays and notes for you.' },
      {
        name: 'Inkpot',
        description: 'An editor that works well with quillmark exports.',
        isFeature: true,
        isSponsor: true,
      },
      { name: 'Unrelated Thing', description: 'Makes spreadsheets.' },
    ]);
    const page = await search('quillmark');
    expect(page.tools.map((r) => r.name)).toEqual(['Quillmark Studio', 'Inkpot']);
    expect(page.tools[1]).toMatchObject({ is_feature: true, is_sponsor: true });
    expect(page.next_cursor).toBeNull();
  });

  it('finds a tool despite a typo in its name ("chatgtp" → "ChatGPT Helper")', async () => {
    await seedTools(t.deps.db, [
      { name: 'ChatGPT Helper', description: 'Prompts for ChatGPT.' },
      { name: 'Spreadsheet Buddy' },
    ]);
    const page = await search('chatgtp');
    expect(page.tools.map((r) => r.name)).toContain('ChatGPT Helper');
    expect(page.tools.map((r) => r.name)).not.toContain('Spreadsheet Buddy');
  });

  it('tolerates one wrong letter in a short name ("zephirly" → "Zephyrly")', async () => {
    await seedTools(t.deps.db, [{ name: 'Zephyrly', description: 'Weather summaries.' }]);
    expect((await search('zephirly')).tools.map((r) => r.name)).toEqual(['Zephyrly']);
  });

  it('uses the typo fallback only when the words match no live tool exactly', async () => {
    await seedTools(t.deps.db, [{ name: 'Fallbackia' }, { name: 'Falbackia Clone' }]);
    // "fallbackia" is a word of one name: exact matches only, the near-miss name stays out.
    expect((await search('fallbackia')).tools.map((r) => r.name)).toEqual(['Fallbackia']);
    // "falbackio" matches no word: it is corrected to the closest word ("falbackia", one edit; "fallbackia" is two), and
    // the answer says so.
    const corrected = await search('falbackio');
    expect(corrected.tools.map((r) => r.name)).toEqual(['Falbackia Clone']);
    expect(corrected.suggestion).toEqual({ query: 'falbackia', corrected_from: 'falbackio' });
  });

  it('matches a word typed halfway, and description words through stemming', async () => {
    await seedTools(t.deps.db, [{ name: 'Glimmerforge', description: 'Translating contracts between languages.' }]);
    expect((await search('glimmerf')).tools.map((r) => r.name)).toEqual(['Glimmerforge']);
    expect((await search('glimmerforge translates')).tools.map((r) => r.name)).toEqual(['Glimmerforge']);
  });

  it('returns the result shape with a short description', async () => {
    const [seeded] = await seedTools(t.deps.db, [
      { name: 'Verbosa', description: `Verbosa ${'explains things at length '.repeat(20)}` },
    ]);
    const page = await search('verbosa');
    expect(page.tools).toEqual([
      {
        slug: seeded!.slug,
        name: 'Verbosa',
        url: seeded!.url,
        description: expect.stringMatching(/^Verbosa explains things at length .*…$/),
        is_feature: false,
        is_sponsor: false,
        live_url: `http://tooldir.test/tools/${seeded!.slug}`,
        categories: [],
      },
    ]);
    expect(page.tools[0]!.description!.length).toBeLessThanOrEqual(160);
  });

  it('treats query syntax as plain words', async () => {
    await seedTools(t.deps.db, [{ name: 'Brackety Tool' }]);
    expect((await search("brackety & ) ' :* !")).tools.map((r) => r.name)).toEqual(['Brackety Tool']);
    expect((await search("'); DROP TABLE sites; --")).tools).toBeInstanceOf(Array);
  });
});

describe('searchTools only lists live tools', () => {
  it('never returns a tool in any other status, by search or by get', async () => {
    const seeded = await seedTools(t.deps.db, [
      { name: 'Hiddenwick Queued', status: 'queued' },
      { name: 'Hiddenwick Review', status: 'pending_review' },
      { name: 'Hiddenwick Rejected', status: 'rejected' },
      { name: 'Hiddenwick Failed', status: 'crawl_failed' },
      { name: 'Hiddenwick Crawling', status: 'crawling' },
      { name: 'Hiddenwick Live' },
    ]);
    expect((await search('hiddenwick')).tools.map((r) => r.name)).toEqual(['Hiddenwick Live']);
    expect((await search('hiddenwik')).tools.map((r) => r.name)).toEqual(['Hiddenwick Live']);
    expect((await search(undefined, 50)).tools.map((r) => r.name).filter((n) => n.startsWith('Hiddenwick'))).toEqual([
      'Hiddenwick Live',
    ]);
    for (const tool of seeded.slice(0, 5)) {
      await expect(getTool({ deps: t.deps, input: { slug: tool.slug } })).rejects.toMatchObject({ code: 'not_found' });
      await expect(getTool({ deps: t.deps, input: { site_id: tool.id } })).rejects.toMatchObject({ code: 'not_found' });
    }
    await expect(getTool({ deps: t.deps, input: { slug: seeded[5]!.slug } })).resolves.toMatchObject({
      name: 'Hiddenwick Live',
    });
  });
});

describe('searchTools pagination', () => {
  async function readAll(query: string | undefined, limit: number): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page: SearchPage = await search(query, limit, cursor);
      names.push(...page.tools.map((r) => r.name));
      if (!page.next_cursor) return names;
      cursor = page.next_cursor;
    }
    throw new Error('pagination did not end');
  }

  it('pages through equal-scored matches without duplicates or gaps', async () => {
    const same = new Date('2026-01-01T00:00:00Z');
    // Same score and same publication time for all: only the id breaks the tie, the hardest case for keysets.
    const seeds = Array.from({ length: 23 }, (_, i) => ({
      name: `Pagewise ${String(i).padStart(2, '0')}`,
      publishedAt: same,
    }));
    const seeded: SeededTool[] = await seedTools(t.deps.db, seeds);
    const names = await readAll('pagewise', 5);
    expect(names).toHaveLength(23);
    expect(new Set(names).size).toBe(23);
    expect(new Set(names)).toEqual(new Set(seeded.map((s) => s.name)));
  });

  it('pages through typo-fallback matches too', async () => {
    const seeded = await seedTools(
      t.deps.db,
      Array.from({ length: 7 }, (_, i) => ({ name: `Typopager ${i}` })),
    );
    const all = (await search('typopagr', 50)).tools.map((r) => r.name);
    expect(new Set(all)).toEqual(new Set(seeded.map((s) => s.name)));
    expect(await readAll('typopagr', 3)).toEqual(all);
  });

  it('pages through mixed scores in the same order as one big page', async () => {
    await seedTools(t.deps.db, [
      { name: 'Mixpage', description: 'mixpage' },
      ...Array.from({ length: 9 }, (_, i) => ({ name: `Mixpage Tool ${i}` })),
      ...Array.from({ length: 6 }, (_, i) => ({ name: `Other ${i} Mixthing`, description: `works with mixpage ${i}` })),
    ]);
    const all = (await search('mixpage', 50)).tools.map((r) => r.name);
    expect(all).toHaveLength(16);
    expect(all[0]).toBe('Mixpage');
    expect(await readAll('mixpage', 3)).toEqual(all);
  });

  it('lists the newest live tools for an empty query, paged without duplicates even as new tools appear', async () => {
    const first = await search('', 2);
    expect(first.tools).toHaveLength(2);
    await seedTools(t.deps.db, [{ name: 'Brand New Arrival' }]);
    const second = await search('', 2, first.next_cursor!);
    const overlap = second.tools.filter((r) => first.tools.some((f) => f.slug === r.slug));
    expect(overlap).toEqual([]);
    expect(second.tools.map((r) => r.name)).not.toContain('Brand New Arrival');
    expect((await search('', 1)).tools[0]!.name).toBe('Brand New Arrival');
  });

  it('validates input and refuses a cursor from another query', async () => {
    await expect(search('x'.repeat(201))).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^query/),
    });
    await expect(search('a', 0)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^limit/),
    });
    await expect(search('a', 51)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^limit/),
    });
    await seedTools(
      t.deps.db,
      Array.from({ length: 3 }, (_, i) => ({ name: `Crossq ${i}` })),
    );
    const page = await search('crossq', 1);
    await expect(search('other', 1, page.next_cursor!)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^cursor/),
    });
    await expect(search('', 1, page.next_cursor!)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('answers a well-formed cursor of any mode and tier with a page, never a failing statement', async () => {
    await seedTools(t.deps.db, [{ name: 'Forgeable One' }, { name: 'Forgeable Two' }]);
    const at = { publishedMicros: String(Date.now() * 1000), id: crypto.randomUUID() };
    for (const mode of ['text', 'typo'] as const) {
      for (const tier of [0, 1, 2, 3, 4] as const) {
        const page = await search('forgeable', 5, encodeCursor('forgeable', { mode, tier, ...at }));
        expect(Array.isArray(page.tools), `${mode} ${tier}`).toBe(true);
      }
    }
    // A text cursor before every tier reads the whole list again; one past the last tier, nothing.
    expect(
      (await search('forgeable', 5, encodeCursor('forgeable', { mode: 'text', tier: 0, ...at }))).tools,
    ).toHaveLength(2);
    expect((await search('forgeable', 5, encodeCursor('forgeable', { mode: 'text', tier: 4, ...at }))).tools).toEqual(
      [],
    );
  });
});

describe('getTool', () => {
  it('returns the detail by slug and by site_id', async () => {
    const [seeded] = await seedTools(t.deps.db, [
      {
        name: 'Detailia',
        description: 'Full description.',
        image: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg',
        icon: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.ico',
        isFeature: true,
        categories: ['design'],
      },
    ]);
    const expected = {
      site_id: seeded!.id,
      slug: seeded!.slug,
      name: 'Detailia',
      url: seeded!.url,
      description: 'Full description.',
      image: 'http://tooldir.test/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg',
      icon: 'http://tooldir.test/media/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.ico',
      is_feature: true,
      is_sponsor: false,
      live_url: `http://tooldir.test/tools/${seeded!.slug}`,
      published_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      categories: [{ slug: 'design', name: 'Design' }],
      // Never re-checked yet (docs/health.md).
      health: {
        state: 'unchecked',
        reason: 'not checked yet',
        last_checked_at: null,
        last_ok_at: null,
        failing_since: null,
        moved_to: null,
      },
      mcp: null,
    };
    expect(await getTool({ deps: t.deps, input: { slug: seeded!.slug } })).toEqual(expected);
    expect(await getTool({ deps: t.deps, input: { site_id: seeded!.id } })).toEqual(expected);
    await expect(getTool({ deps: t.deps, input: { site_id: 'nope' } })).rejects.toMatchObject({ code: 'not_found' });
    await expect(getTool({ deps: t.deps, input: { slug: 'no-such-tool' } })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
