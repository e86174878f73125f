import {
  ALL_CATEGORIES,
  DOMAIN_CATEGORIES,
  DOMAINS,
  isCorpusWord,
  pick,
  type CorpusTool,
  type CorpusVocabulary,
  type Rng,
} from './search-corpus';

// The kinds of search issue 23 times, each drawn at random from a generated corpus (./search-corpus.ts) on every
// run, so no query list can be tuned for: the benchmark reports percentiles over many draws per kind, and the
// corpus test checks the answers of a few draws per kind.

export const SEARCH_KINDS = [
  'one common word',
  'two common words never together',
  'three common words never together',
  'prefix',
  'typo of a common word',
  'typo in a two-word query',
  'word matching nothing',
  'category and a word',
  'category alone',
  'page 2 and later',
  '50 per page',
  'empty query',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** One search to run: read pages 1 to `page` of `query` (in `category`) with `limit` results each. */
export interface DrawnSearch {
  kind: SearchKind;
  query: string;
  category?: string;
  limit: number;
  page: number;
}

/** The deepest page "page 2 and later" reads. */
export const LATEST_PAGE = 6;

const LETTERS = { consonants: 'bdfgklmnprstvz', vowels: 'aeiou' };

/**
 * A typo of `word` that no corpus word is: two neighbouring letters swapped, or one letter replaced by another of
 * its kind, never the first or last letter (a last letter dropped would be a prefix of the word, not a typo, and
 * the last letter keeps the word one the stemmer leaves alone).
 */
export function typoOf(rng: Rng, vocabulary: CorpusVocabulary, word: string): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const at = 1 + Math.floor(rng() * (word.length - 2));
    let typo: string;
    if (rng() < 0.5 && at + 1 <= word.length - 2)
      typo = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    else {
      const kind = LETTERS.vowels.includes(word[at]!) ? LETTERS.vowels : LETTERS.consonants;
      typo = word.slice(0, at) + pick(rng, kind.replace(word[at]!, '')) + word.slice(at + 1);
    }
    if (typo !== word && !isCorpusWord(vocabulary, typo)) return typo;
  }
  throw new Error(`no typo of ${word} found`);
}

/** A word no tool has and none is similar to: every trigram holds a letter the corpus never uses. */
function nonsense(rng: Rng): string {
  let word = '';
  for (let i = 0; i < 3; i++) word += pick(rng, 'cjqwx') + pick(rng, i === 2 ? 'aou' : 'aeiou');
  return word;
}

/** Distinct domains, in random order. */
function domains(rng: Rng, count: number): number[] {
  const all = Array.from({ length: DOMAINS }, (_, d) => d);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count);
}

/**
 * Draws one search of `kind`. `tool(i)` regenerates tool i (the two-word typo starts from a real name); common
 * words are drawn uniformly from the global words and the domains' frequent bands, so a run meets the most
 * frequent words and those in about 1% of tools alike.
 */
export function drawSearch(
  rng: Rng,
  vocabulary: CorpusVocabulary,
  tool: (index: number) => CorpusTool,
  kind: SearchKind,
): DrawnSearch {
  const band = (domain: number) => pick(rng, vocabulary.bands[domain]!);
  const common = () => pick(rng, [...vocabulary.globalWords, ...vocabulary.bands.flat()]);
  const base = { kind, limit: 20, page: 1 };
  switch (kind) {
    case 'one common word':
      return { ...base, query: common() };
    case 'two common words never together':
      return { ...base, query: domains(rng, 2).map(band).join(' ') };
    case 'three common words never together':
      return { ...base, query: domains(rng, 3).map(band).join(' ') };
    case 'prefix': {
      if (rng() < 0.5) {
        // A family's prefix, the families drawn by their size (a popular prefix is typed more often).
        const weights = vocabulary.families.map((_, r) => 1 / (r + 1));
        let x = rng() * weights.reduce((a, b) => a + b, 0);
        const family = vocabulary.families.find((_, r) => (x -= weights[r]!) < 0) ?? vocabulary.families[0]!;
        return { ...base, query: family };
      }
      const word = band(Math.floor(rng() * DOMAINS));
      return { ...base, query: word.slice(0, 4 + Math.floor(rng() * (word.length - 5))) };
    }
    case 'typo of a common word':
      return { ...base, query: typoOf(rng, vocabulary, band(Math.floor(rng() * DOMAINS))) };
    case 'typo in a two-word query': {
      for (;;) {
        const words = tool(Math.floor(rng() * vocabulary.tools))
          .name.toLowerCase()
          .split(' ');
        if (words.length < 2) continue;
        const at = Math.floor(rng() * (words.length - 1));
        const pair = [words[at]!, words[at + 1]!];
        const wrong = Math.floor(rng() * 2);
        pair[wrong] = typoOf(rng, vocabulary, pair[wrong]!);
        return { ...base, query: pair.join(' ') };
      }
    }
    case 'word matching nothing':
      return { ...base, query: nonsense(rng) };
    case 'category and a word': {
      const domain = Math.floor(rng() * DOMAINS);
      return {
        ...base,
        query: band(domain),
        category: rng() < 0.7 ? pick(rng, DOMAIN_CATEGORIES[domain]!) : pick(rng, ALL_CATEGORIES),
      };
    }
    case 'category alone':
      return { ...base, query: '', category: pick(rng, ALL_CATEGORIES) };
    case 'page 2 and later':
      return { ...base, query: common(), page: 2 + Math.floor(rng() * (LATEST_PAGE - 1)) };
    case '50 per page':
      return { ...base, query: common(), limit: 50 };
    case 'empty query':
      return { ...base, query: '' };
  }
}
