import { describe, expect, it } from 'vitest';
import {
  ALL_CATEGORIES,
  BAND_WORDS,
  CLUSTER_SHARES,
  DOMAIN_CATEGORIES,
  GLOBAL_SHARES,
  clustersOf,
  corpusTools,
  corpusVocabulary,
  isCorpusWord,
  namePairsOf,
  rngFrom,
} from '../helpers/search-corpus';
import {
  CATEGORY_WORDS,
  LATEST_PAGE,
  SEARCH_KINDS,
  descriptionTypoOf,
  drawSearch,
  typoOf,
} from '../helpers/search-corpus-queries';
import { levenshtein, typoDistance } from '../helpers/search-corpus-oracle';

// The search corpus generator (test/helpers/search-corpus.ts) must produce the shapes issues 23 and 32 name, at any
// size: checked here at 20,000 tools, in memory.

const N = 20_000;
const vocabulary = corpusVocabulary(7, N);
const tool = corpusTools(vocabulary);
const tools = Array.from({ length: N }, (_, i) => tool(i));
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
const documentFrequency = new Map<string, number>();
for (const t of tools)
  for (const w of wordsOf(`${t.name} ${t.description}`)) documentFrequency.set(w, (documentFrequency.get(w) ?? 0) + 1);
const df = (word: string) => documentFrequency.get(word) ?? 0;

describe('search corpus', () => {
  it('is a pure function of seed and index', () => {
    const again = corpusTools(corpusVocabulary(7, N));
    expect(again(12_345)).toEqual(tools[12_345]);
    expect(again(0)).toEqual(tools[0]);
    expect(corpusTools(corpusVocabulary(8, N))(0)).not.toEqual(tools[0]);
  });

  it('has global words in a fixed share of all tools', () => {
    vocabulary.globalWords.forEach((word, g) => {
      expect(df(word) / N, word).toBeGreaterThan(GLOBAL_SHARES[g]! * 0.85);
      // Plus names: three tools in ten end their name with a global word.
      expect(df(word) / N, word).toBeLessThan(GLOBAL_SHARES[g]! * 1.15 + 0.04);
    });
  });

  it('has a few hundred frequent words, each in 1% to 7% of tools, Zipf-like by rank', () => {
    const band = vocabulary.bands.flat();
    expect(band).toHaveLength(4 * BAND_WORDS);
    const shares = band.map((w) => df(w) / N);
    expect(shares.filter((s) => s >= 0.01).length).toBeGreaterThanOrEqual(380);
    expect(Math.max(...shares)).toBeLessThan(0.08);
    for (const words of vocabulary.bands) {
      // Rank 1 is in several times as many tools as rank 100.
      expect(df(words[0]!)).toBeGreaterThan(4 * df(words[BAND_WORDS - 1]!));
    }
  });

  it('has words that occur together within a field: groups a description holds together, pairs a name holds together', () => {
    const clusters = clustersOf(vocabulary);
    const perDomain = [0, 1, 2, 3].map((d) => tools.filter((t) => t.domain === d).length);
    clusters.forEach((groups, d) =>
      groups.forEach((group, c) => {
        const holders = tools.filter((t) => t.domain === d && group.every((w) => wordsOf(t.description).has(w))).length;
        // Each group in its share of the domain's tools (at 100,000 tools: 750 to 3,000 tools hold all three) ...
        expect(holders / perDomain[d]!, group.join(' ')).toBeGreaterThan(CLUSTER_SHARES[c]! * 0.8);
        // ... each of its words being frequent on its own too, and the pairs of the group occurring together far more
        // often than independent words would.
        for (const w of group) expect(df(w) / N, w).toBeGreaterThan(0.01);
        const [a, b] = group;
        const both = tools.filter((t) => wordsOf(t.description).has(a!) && wordsOf(t.description).has(b!)).length;
        expect(both / N).toBeGreaterThan(5 * (df(a!) / N) * (df(b!) / N));
      }),
    );
    for (const [d, pairs] of namePairsOf(vocabulary).entries()) {
      for (const [a, b] of pairs) {
        const both = tools.filter((t) => t.domain === d && wordsOf(t.name).has(a!) && wordsOf(t.name).has(b!)).length;
        expect(both / N, `${a} ${b}`).toBeGreaterThan(0.005); // 500 names at 100,000 tools
      }
    }
  });

  it('names some tools by a frequent word and a number, the number mostly their own', () => {
    const numbered = tools.filter((t) => /^[A-Z][a-z]+ \d{1,4}$/.test(t.name));
    expect(numbered.length / N).toBeGreaterThan(0.04);
    expect(numbered.length / N).toBeLessThan(0.08);
    expect(new Set(numbered.map((t) => t.name)).size / numbered.length).toBeGreaterThan(0.95);
    for (const t of numbered)
      expect(vocabulary.bands[t.domain]!.slice(0, 10)).toContain(t.name.split(' ')[0]!.toLowerCase());
  });

  it('never puts frequent words of two domains in one tool', () => {
    const domainOf = new Map(vocabulary.bands.flatMap((words, d) => words.map((w) => [w, d] as const)));
    const mixed = tools.filter((t) =>
      [...wordsOf(`${t.name} ${t.description}`)].some((w) => (domainOf.get(w) ?? t.domain) !== t.domain),
    );
    expect(mixed).toEqual([]);
  });

  it('has many rare words: most words are in four tools or fewer', () => {
    const counts = [...documentFrequency.values()];
    expect(counts.filter((n) => n <= 4).length / counts.length).toBeGreaterThan(0.8);
    expect(counts.length).toBeGreaterThan(N / 2);
  });

  it('gives names that share prefixes, the largest families in hundreds of names', () => {
    const family = (name: string) => name.slice(0, 4).toLowerCase();
    const byFamily = new Map<string, number>();
    for (const t of tools)
      if (vocabulary.families.includes(family(t.name)))
        byFamily.set(family(t.name), (byFamily.get(family(t.name)) ?? 0) + 1);
    expect(byFamily.get(vocabulary.families[0]!)).toBeGreaterThan(200);
    expect([...byFamily.values()].reduce((a, b) => a + b, 0) / N).toBeGreaterThan(0.35);
    expect(tools.filter((t) => t.name.split(' ').length > 3)).toEqual([]);
  });

  it('puts every tool in one to three categories, at least one of its domain', () => {
    const wrong = tools.filter(
      (t) =>
        t.categories.length < 1 ||
        t.categories.length > 3 ||
        !t.categories.some((c) => (DOMAIN_CATEGORIES[t.domain] as readonly string[]).includes(c)) ||
        !t.categories.every((c) => ALL_CATEGORIES.includes(c)),
    );
    expect(wrong).toEqual([]);
  });

  it('makes typos that are no corpus word, one edit away, first and last letters kept', () => {
    const rng = rngFrom(3);
    for (const word of vocabulary.bands.flat()) {
      const typo = typoOf(rng, vocabulary, word);
      expect(isCorpusWord(vocabulary, typo), typo).toBe(false);
      expect(typo).toHaveLength(word.length);
      expect([typo[0], typo.at(-1)]).toEqual([word[0], word.at(-1)]);
      expect([...typo].filter((c, i) => c !== word[i]).length).toBeLessThanOrEqual(2);
    }
  });

  it('makes description typos one edit away (two for some words of 8 letters or more), first and last letters kept', () => {
    const rng = rngFrom(4);
    let twoEdits = 0;
    for (const word of [...vocabulary.bands.flat(), ...vocabulary.rareWords.slice(0, 300)]) {
      const typo = descriptionTypoOf(rng, vocabulary, word);
      expect(isCorpusWord(vocabulary, typo), typo).toBe(false);
      expect([typo[0], typo.at(-1)]).toEqual([word[0], word.at(-1)]);
      const distance = typoDistance(typo, word);
      expect(distance, `${word} → ${typo}`).toBeGreaterThanOrEqual(1);
      expect(distance, `${word} → ${typo}`).toBeLessThanOrEqual(word.length >= 8 ? 2 : 1);
      if (distance === 2) twoEdits++;
    }
    expect(twoEdits).toBeGreaterThan(20);
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(typoDistance('gientu', 'ginetu')).toBe(1); // a swap is one edit
  });

  it('draws every kind of search as the issue describes it', () => {
    const rng = rngFrom(5);
    const domainOf = new Map(vocabulary.bands.flatMap((words, d) => words.map((w) => [w, d] as const)));
    for (let i = 0; i < 50; i++) {
      for (const kind of SEARCH_KINDS) {
        const drawn = drawSearch(rng, vocabulary, tool, kind);
        const words = drawn.query.split(' ').filter(Boolean);
        expect(drawn.page === 1 || kind === 'page 2 and later').toBe(true);
        if (kind === 'two common words never together' || kind === 'three common words never together') {
          expect(new Set(words.map((w) => domainOf.get(w))).size).toBe(kind.startsWith('two') ? 2 : 3);
        }
        if (kind === 'page 2 and later')
          expect(drawn.page).toBeGreaterThanOrEqual(2), expect(drawn.page).toBeLessThanOrEqual(LATEST_PAGE);
        if (kind === '50 per page') expect(drawn.limit).toBe(50);
        if (kind === 'category alone' || kind === 'empty query') expect(words).toEqual([]);
        if (kind === 'category alone' || kind === 'category and a word')
          expect(ALL_CATEGORIES).toContain(drawn.category);
        if (kind === 'word matching nothing') {
          expect(df(drawn.query)).toBe(0);
          // No word is within two edits either, so the typo fallback has nothing to offer.
          const near = [...vocabulary.bands.flat(), ...vocabulary.globalWords, ...Object.values(CATEGORY_WORDS).flat()];
          expect(Math.min(...near.map((w) => typoDistance(drawn.query, w)))).toBeGreaterThan(2);
        }
        if (kind === 'two words that occur together' || kind === 'three words that occur together') {
          expect(words).toHaveLength(kind.startsWith('two') ? 2 : 3);
          // Frequent words of one group: thousands of tools hold them together at 100,000 tools.
          const together = tools.filter((t) => words.every((w) => wordsOf(t.description).has(w))).length;
          expect(together / N, drawn.query).toBeGreaterThan(0.006);
        }
        if (kind === 'full name with its number') {
          expect(drawn.query).toMatch(/^[a-z]+ \d{1,4}$/);
          expect(tools.some((t) => t.name.toLowerCase() === drawn.query)).toBe(true);
        }
        if (kind === 'category word') {
          const categoryWord = words.at(-1)!;
          expect(Object.values(CATEGORY_WORDS).flat()).toContain(categoryWord);
          expect(df(categoryWord)).toBe(0); // found through categories alone
        }
        if (kind === 'typo of a description word') {
          const typo = words.at(-1)!;
          expect(isCorpusWord(vocabulary, typo), typo).toBe(false);
          expect(df(typo)).toBe(0);
        }
        if (kind === 'typo in a two-word query') expect(words).toHaveLength(2);
        if (kind === 'prefix') expect(df(drawn.query)).toBe(0); // a word typed halfway, not a word
      }
    }
  });
});
