import { describe, expect, it } from 'vitest';
import {
  ALL_CATEGORIES,
  BAND_WORDS,
  DOMAIN_CATEGORIES,
  GLOBAL_SHARES,
  corpusTools,
  corpusVocabulary,
  isCorpusWord,
  rngFrom,
} from '../helpers/search-corpus';
import { LATEST_PAGE, SEARCH_KINDS, drawSearch, typoOf } from '../helpers/search-corpus-queries';
import { similarity } from '../helpers/search-corpus-oracle';

// The search corpus generator (test/helpers/search-corpus.ts) must produce the shapes issue 23 names, at any size:
// checked here at 20,000 tools, in memory.

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
          // No vocabulary word is even similar, so the typo fallback has nothing to offer either.
          expect(Math.max(...vocabulary.bands.flat().map((w) => similarity(w, drawn.query)))).toBe(0);
        }
        if (kind === 'typo in a two-word query') expect(words).toHaveLength(2);
        if (kind === 'prefix') expect(df(drawn.query)).toBe(0); // a word typed halfway, not a word
      }
    }
  });
});
