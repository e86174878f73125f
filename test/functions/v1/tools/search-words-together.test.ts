// Two or three words typed together (issue 32; drizzle/0048_search_words_together.sql): a first page is read as an
// intersection of the words' postings, at most 4 × (limit + 1) entries per tier; a tier it cannot finish within them
// goes on the general way. Each case below is built so that one of those ways answers it (the numbers of tools are
// chosen against that bound), and each must give the ranking rules' answer through GET /api/v1/tools: the tool named
// as the query, then names that hold every word, then the other tools whose text holds every word, newest first in
// each, pages continuing through the cursor without a repeat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { seedTools, type SeededTool, type ToolSeed } from '../../../helpers/live-tools';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
/**
 * A word no other tool of the suite holds, that the english stemmer keeps as it is (no suffix rule ends in "u"), so
 * a word typed last begins no other lexeme.
 */
const word = () =>
  `zq${crypto
    .randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 8)}u`;

interface Page {
  tools: Array<{ slug: string }>;
  next_cursor: string | null;
}
async function search(query: string, limit: number, cursor?: string): Promise<Page> {
  const params = new URLSearchParams({ q: query, limit: String(limit) });
  if (cursor) params.set('cursor', cursor);
  const res = await t.request(`/api/v1/tools?${params}`, {
    headers: { 'cf-connecting-ip': `203.0.113.${++ipCounter % 250}` },
  });
  expect(res.status, params.toString()).toBe(200);
  return (await res.json()) as Page;
}

/** Every page of `query` at `limit`, joined; fails on a repeat. */
async function allPages(query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 50; n++) {
    const page = await search(query, limit, cursor);
    for (const tool of page.tools) {
      expect(seen, `${query}: page ${n + 1} repeats ${tool.slug}`).not.toContain(tool.slug);
      seen.push(tool.slug);
    }
    if (!page.next_cursor) return seen;
    cursor = page.next_cursor;
  }
  throw new Error(`${query}: more than 50 pages`);
}

/** Listing times that only grow, across every seeding of the suite: a tool seeded later is newer. */
let clock = Date.now() - 30 * 86_400_000;
/** Seeds `seeds` in listing order (each newer than every tool seeded before); returns them as seeded. */
const seedInOrder = (seeds: ToolSeed[]): Promise<SeededTool[]> =>
  seedTools(
    t.deps.db,
    seeds.map((seed) => ({ ...seed, publishedAt: new Date((clock += 1000)) })),
  );
/** Seeds `seeds` in listing order and returns them newest first. */
const seedNewestFirst = async (seeds: ToolSeed[]): Promise<SeededTool[]> => (await seedInOrder(seeds)).reverse();
const filler = (n: number) => Array.from({ length: n }, () => word()).join(' ');
const slugsOf = (tools: SeededTool[]) => tools.map((tool) => tool.slug);

describe('two or three words that occur together', () => {
  it('ranks the tool named as the query, then names with every word, then descriptions, each newest first', async () => {
    const [a, b, c] = [word(), word(), word()];
    const seeds: ToolSeed[] = [];
    // Oldest: the tool named as the query, two names with both words, one with all three; then descriptions with both
    // words (some with the third, some with one word in the name), and tools with one of the words only.
    seeds.push({ name: `${a} ${b}`, description: filler(3) });
    seeds.push({ name: `${b} Studio ${a}`, description: filler(3) });
    seeds.push({ name: `${a} ${c} ${b}`, description: filler(2) });
    for (let i = 0; i < 30; i++) {
      seeds.push({ name: `Only ${a} ${i}`, description: filler(4) });
      seeds.push({
        name: i % 5 === 0 ? `${b} Tool ${i}` : `Tool ${i} ${word()}`,
        description: `${filler(2)} ${a} ${filler(1)} ${b} ${i % 3 === 0 ? c : ''}`,
      });
      seeds.push({ name: `Only ${b} ${i}`, description: filler(4) });
    }
    seeds.push({ name: `${a} ${b} Pro`, description: filler(2) }); // the newest name with both words
    const tools = await seedInOrder(seeds);
    const byName = (predicate: (tool: SeededTool) => boolean) => tools.filter(predicate).reverse();
    const holds = (tool: SeededTool, words: string[]) => {
      const seed = seeds[tools.indexOf(tool)]!;
      const text = `${seed.name} ${seed.description ?? ''}`.toLowerCase().split(/\s+/);
      return words.every((w) => text.includes(w));
    };
    const inName = (tool: SeededTool, words: string[]) => {
      const name = tool.name.toLowerCase().split(/\s+/);
      return words.every((w) => name.includes(w));
    };

    const exact = tools[0]!;
    const names = byName((tool) => inName(tool, [a, b]));
    const descriptions = byName((tool) => !inName(tool, [a, b]) && holds(tool, [a, b]));
    expect([names.length, descriptions.length]).toEqual([4, 30]);
    const two = [exact, ...names.filter((tool) => tool !== exact), ...descriptions];
    expect((await search(`${a} ${b}`, 20)).tools.map((x) => x.slug)).toEqual(slugsOf(two).slice(0, 20));
    for (const limit of [1, 3, 7, 50])
      expect(await allPages(`${a} ${b}`, limit), `limit ${limit}`).toEqual(slugsOf(two));
    // Not named as the query: the tool named "a b" is one of the names. A repeated word or a stop word at the end
    // changes nothing else.
    const unnamed = slugsOf([...names, ...descriptions]);
    for (const query of [`${b} ${a}`, `${a} ${a} ${b}`, `${a} ${b} the`, `${b.toUpperCase()}, ${a}!`]) {
      expect(await allPages(query, 20), query).toEqual(unnamed);
    }

    const three = [
      ...byName((tool) => inName(tool, [a, b, c])),
      ...byName((tool) => !inName(tool, [a, b, c]) && holds(tool, [a, b, c])),
    ];
    expect(three.length).toBe(1 + 10);
    for (const limit of [2, 20])
      expect(await allPages(`${a} ${b} ${c}`, limit), `limit ${limit}`).toEqual(slugsOf(three));
  });

  it('finds words that meet only in old tools, past the entries a first page reads', async () => {
    const [p, q] = [word(), word()];
    const together = await seedNewestFirst(
      Array.from({ length: 3 }, (_, i) => ({ name: `Both ${i}`, description: `${q} ${filler(2)} ${p}` })),
    );
    await seedInOrder(
      Array.from({ length: 120 }, (_, i) => ({ name: `One ${i}`, description: `${i % 2 ? p : q} ${filler(3)}` })),
    );
    // limit 5 reads 24 entries of a word in 63 tools: not enough, so the general way finds them; limit 50 reads all.
    for (const limit of [5, 50])
      expect(await allPages(`${p} ${q}`, limit), `limit ${limit}`).toEqual(slugsOf(together));
  });

  it('reads further when the first entries hold part of a page, and pages on from there', async () => {
    const [p, q] = [word(), word()];
    // q is in 283 tools, p in 200 (so p drives); the tools holding p with i % 6 = 3 hold q too (33 of them). A page of
    // 1 reads p's newest 8 entries (4 × 2): one match (i = 195), short of the 2 a page reads. The share predicts 25
    // matches, so it reads 2 × 2 × 8 = 32 entries once more (drizzle/0050) and finds 5 (195 down to 171).
    await seedInOrder(
      Array.from({ length: 250 }, (_, i) => ({ name: `Q only ${i}`, description: `${q} ${filler(2)}` })),
    );
    const withP = await seedInOrder(
      Array.from({ length: 200 }, (_, i) => ({
        name: `P ${i}`,
        description: `${filler(1)} ${p} ${i % 6 === 3 ? q : filler(1)}`,
      })),
    );
    const both = withP.filter((_, i) => i % 6 === 3).reverse();
    expect(both).toHaveLength(33);
    for (const limit of [1, 2, 20]) {
      expect(await allPages(`${p} ${q}`, limit), `limit ${limit}`).toEqual(slugsOf(both));
    }
  });

  it('names first even when the names that hold both words are old and each word is in many newer names', async () => {
    const [m, n] = [word(), word()];
    const oldNames = await seedNewestFirst([
      { name: `${m} ${n} One`, description: filler(2) },
      { name: `Two ${n} ${m}`, description: filler(2) },
    ]);
    const newer = await seedNewestFirst(
      Array.from({ length: 60 }, (_, i) => ({
        name: `${i % 2 ? m : n} ${i}`,
        description: `${filler(1)} ${i % 2 ? n : m} ${filler(1)}`,
      })),
    );
    // Every newer tool holds both words, one in its name: tier 3, after the two old names.
    for (const limit of [3, 50]) {
      expect(await allPages(`${m} ${n}`, limit), `limit ${limit}`).toEqual(slugsOf([...oldNames, ...newer]));
    }
  });

  it('finds a rare word beside a far more common one (each entry of the rare word looked up in the common one)', async () => {
    const [rare, common] = [word(), word()];
    const seeds: ToolSeed[] = Array.from({ length: 60 }, (_, i) => ({
      name: i % 3 ? `Plain ${i}` : `${common} ${i}`,
      description: `${filler(1)} ${common} ${[5, 20, 35].includes(i) ? rare : ''}`,
    }));
    seeds.push({ name: `${rare} ${common} Kit`, description: filler(2) });
    const tools = await seedInOrder(seeds);
    const expected = [tools[60]!, tools[35]!, tools[20]!, tools[5]!];
    for (const limit of [1, 2, 20]) {
      expect(await allPages(`${common} ${rare}`, limit), `limit ${limit}`).toEqual(slugsOf(expected));
    }
  });
});
