import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

// A directory of N live tools whose words are spread the way real listings spread them (issue 23), for the
// search benchmark (test/bench/search.bench.ts, 10,000 to 1,000,000 tools) and the search tests at a size CI can
// afford (test/functions/v1/search-corpus.test.ts). Shapes, at any N:
//   - a few global words in a large share of all tools ("ai", "app"): they co-occur with everything;
//   - DOMAINS disjoint bands of frequent words. The word of rank r in its domain is in a share A/(r+Q)^S of that
//     domain's tools (Zipf-Mandelbrot): at 100,000 tools, 400 words in 1,000 to 6,000 tools each. A tool takes
//     its words from one domain, so two words of different domains never occur together;
//   - rare words, N of them, two per tool drawn uniformly: most are in one to four tools;
//   - names of one to three words: a brand (from a family of brands that share a four-letter prefix, the
//     families' sizes Zipf-distributed, or a rare word), often a frequent word of the tool's domain, sometimes a
//     global word;
//   - one to three of the 12 starter categories, mostly the three of the tool's domain.
// Every word is made of consonant-vowel syllables and ends in a, o or u, which the english stemmer leaves alone
// (the generator's test checks it on every word), so a word's tools are known exactly without PostgreSQL.
// Random access: tool i is a pure function of (seed, i), so a million tools can be streamed in batches and any
// one regenerated. Tool 0 is the newest.

export const DOMAINS = 4;
/** Frequent words per domain. */
export const BAND_WORDS = 100;
const BAND_A = 1.7;
const BAND_Q = 10;
const BAND_S = 0.8;
/** Share of all tools each global word is in (rank order). */
export const GLOBAL_SHARES = [0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.05, 0.04, 0.03, 0.02] as const;
const RARE_PER_TOOL = 2;
/** The starter categories (drizzle/0023_categories_starter_set.sql), three per domain. */
export const DOMAIN_CATEGORIES = [
  ['writing', 'marketing', 'research'],
  ['image', 'video', 'design'],
  ['code', 'data', 'chat'],
  ['audio', 'education', 'productivity'],
] as const;
export const ALL_CATEGORIES: readonly string[] = DOMAIN_CATEGORIES.flat();
/** English stop words between the words of a description: to_tsvector drops them, as it does in real text. */
const FILLERS = ['for', 'with', 'and', 'your', 'the'];

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';
/** A word's last letter: the english stemmer strips no suffix that ends in one of these. */
const FINAL_VOWELS = 'aou';

/** Uniform numbers in [0, 1). */
export type Rng = () => number;

/** Mixes 32-bit integers into one (murmur3's finaliser), so nearby seeds give unrelated streams. */
function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ value, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h | 0;
}

/** A seeded generator (pure-rand's xoroshiro128+), its state mixed from `parts`. */
export function rngFrom(...parts: number[]): Rng {
  const generator = xoroshiro128plusFromState([
    mix(...parts, 1),
    mix(...parts, 2),
    mix(...parts, 3),
    mix(...parts, 4) | 1,
  ]);
  return () => uniformFloat64(generator);
}

export function pick(rng: Rng, values: string): string;
export function pick<T>(rng: Rng, values: readonly T[]): T;
export function pick<T>(rng: Rng, values: readonly T[] | string): T | string {
  return values[Math.floor(rng() * values.length)]!;
}

/** Syllables of consonant + vowel, the last vowel one of FINAL_VOWELS unless `open`. */
function syllables(rng: Rng, count: number, open = false): string {
  let word = '';
  for (let i = 0; i < count; i++)
    word += pick(rng, CONSONANTS) + pick(rng, !open && i === count - 1 ? FINAL_VOWELS : VOWELS);
  return word;
}

/** The word list's pools, fixed by (seed, tools). */
export interface CorpusVocabulary {
  seed: number;
  tools: number;
  globalWords: string[];
  /** Per domain, its frequent words by rank. */
  bands: string[][];
  /** Four-letter brand prefixes, the largest family first. */
  families: string[];
  /** Brand endings: a family brand is prefix + ending. */
  endings: string[];
  rareWords: string[];
}

/** Share of its domain's tools the band word of rank `rank` (1-based) is in. */
export const bandShare = (rank: number) => Math.min(0.25, BAND_A / (rank + BAND_Q) ** BAND_S);

export function corpusVocabulary(seed: number, tools: number): CorpusVocabulary {
  const rng = rngFrom(seed, 0x766f63);
  const used = new Set<string>();
  const fresh = (make: () => string) => {
    for (;;) {
      const word = make();
      if (!used.has(word)) {
        used.add(word);
        return word;
      }
    }
  };
  const globalWords = GLOBAL_SHARES.map(() => fresh(() => syllables(rng, 3)));
  const bands = Array.from({ length: DOMAINS }, () =>
    Array.from({ length: BAND_WORDS }, () => fresh(() => syllables(rng, 3 + Math.floor(rng() * 2)))),
  );
  const families = Array.from({ length: Math.max(10, Math.round(tools / 500)) }, () =>
    fresh(() => syllables(rng, 2, true)),
  );
  const endings = Array.from({ length: 30 }, () => fresh(() => syllables(rng, 2)));
  const rareWords = Array.from({ length: Math.max(200, tools) }, () =>
    fresh(() => syllables(rng, 3 + Math.floor(rng() * 2))),
  );
  return { seed, tools, globalWords, bands, families, endings, rareWords };
}

/** One generated tool (`index` 0 is the newest). */
export interface CorpusTool {
  index: number;
  domain: number;
  name: string;
  description: string;
  categories: string[];
}

/** Cumulative weights for drawing one index by weight. */
function cumulative(weights: number[]): number[] {
  let sum = 0;
  const totals = weights.map((w) => (sum += w));
  return totals.map((t) => t / sum);
}
const drawIndex = (rng: Rng, totals: number[]) => {
  const x = rng();
  let lo = 0;
  let hi = totals.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (totals[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** Draws tools from a vocabulary: `tool(i)` is the same for the same (vocabulary, i). */
export function corpusTools(vocabulary: CorpusVocabulary) {
  const bandShares = Array.from({ length: BAND_WORDS }, (_, r) => bandShare(r + 1));
  const bandTotals = cumulative(bandShares);
  const familyTotals = cumulative(vocabulary.families.map((_, r) => 1 / (r + 1)));
  return function tool(index: number): CorpusTool {
    const rng = rngFrom(vocabulary.seed, index, 0x746f6f);
    const domain = Math.floor(rng() * DOMAINS);
    const band = vocabulary.bands[domain]!;
    const brand =
      rng() < 0.4
        ? vocabulary.families[drawIndex(rng, familyTotals)]! + pick(rng, vocabulary.endings)
        : pick(rng, vocabulary.rareWords);
    const nameWords = [brand];
    if (rng() < 0.7) nameWords.push(band[drawIndex(rng, bandTotals)]!);
    if (rng() < 0.3) nameWords.push(pick(rng, vocabulary.globalWords));
    const words: string[] = [];
    for (let r = 0; r < BAND_WORDS; r++) if (rng() < bandShares[r]!) words.push(band[r]!);
    GLOBAL_SHARES.forEach((share, g) => {
      if (rng() < share) words.push(vocabulary.globalWords[g]!);
    });
    for (let i = 0; i < RARE_PER_TOOL; i++) words.push(pick(rng, vocabulary.rareWords));
    // Shuffled, with stop words between some of them.
    for (let i = words.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [words[i], words[j]] = [words[j]!, words[i]!];
    }
    const text = words.flatMap((w) => (rng() < 0.3 ? [pick(rng, FILLERS), w] : [w]));
    const description = text.length ? `${capital(text.join(' '))}.` : '';
    const home = DOMAIN_CATEGORIES[domain]!;
    const categories = new Set<string>([pick(rng, home)]);
    if (rng() < 0.4) categories.add(pick(rng, home));
    if (rng() < 0.1) categories.add(pick(rng, ALL_CATEGORIES));
    return { index, domain, name: nameWords.map(capital).join(' '), description, categories: [...categories].sort() };
  };
}

/** Whether `word` is one the corpus can hold (a typo that is a real word is no typo). */
export function isCorpusWord(vocabulary: CorpusVocabulary, word: string): boolean {
  let words = wordSets.get(vocabulary);
  if (!words) {
    words = new Set([...vocabulary.globalWords, ...vocabulary.bands.flat(), ...vocabulary.rareWords]);
    wordSets.set(vocabulary, words);
  }
  return (
    words.has(word) || (vocabulary.families.includes(word.slice(0, 4)) && vocabulary.endings.includes(word.slice(4)))
  );
}
const wordSets = new WeakMap<CorpusVocabulary, Set<string>>();

/**
 * When tool `index` was published: one minute apart, tool 0 newest at `newest`. Distinct times, so the order
 * among equals (newest first) is known without the ids.
 */
export const publishedAt = (newest: Date, index: number) => new Date(newest.getTime() - index * 60_000);
