import { typoDistance } from './search-corpus-oracle';
import {
  ALL_CATEGORIES,
  CLUSTERS,
  DOMAIN_CATEGORIES,
  DOMAINS,
  clustersOf,
  isCorpusWord,
  pick,
  type CorpusTool,
  type CorpusVocabulary,
  type Rng,
} from './search-corpus';

// The kinds of search issues 23 and 32 time, each drawn at random from a generated corpus (./search-corpus.ts) on every
// run, so no query list can be tuned for: the benchmark reports percentiles over many draws per kind, and the
// corpus test checks the answers of a few draws per kind.

export const SEARCH_KINDS = [
  'one common word',
  'two common words never together',
  'three common words never together',
  'two words that occur together',
  'three words that occur together',
  'full name with its number',
  'prefix',
  'typo of a common word',
  'typo in a two-word query',
  'typo of a description word',
  'word matching nothing',
  'category word',
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

/**
 * Words that name a starter category (drizzle/0023 and 0034: names and a few synonyms). The corpus never uses them (its
 * words are consonant-vowel syllables ending in a, o or u), so they find tools through their categories alone.
 */
export const CATEGORY_WORDS: Readonly<Record<string, readonly string[]>> = {
  writing: ['writing', 'copywriting', 'essay'],
  image: ['image', 'picture', 'illustration'],
  video: ['video', 'film', 'animation'],
  audio: ['audio', 'transcription', 'podcast'],
  code: ['code', 'programming', 'developer'],
  chat: ['chat', 'chatbot', 'conversation'],
  data: ['data', 'analytics', 'spreadsheet'],
  productivity: ['productivity', 'workflow', 'calendar'],
  marketing: ['marketing', 'advertising', 'seo'],
  research: ['research', 'papers', 'academic'],
  design: ['design', 'logo', 'mockup'],
  education: ['education', 'tutor', 'learning'],
};

/**
 * A description-style typo of `word` that no corpus word is: one edit (a letter dropped, doubled, replaced, or two
 * neighbouring letters swapped), or for a word of 8 letters or more sometimes two, never at the first or last letter.
 */
export function descriptionTypoOf(rng: Rng, vocabulary: CorpusVocabulary, word: string): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    let typo = word;
    const edits = word.length >= 8 && rng() < 0.5 ? 2 : 1;
    for (let e = 0; e < edits; e++) {
      const at = 1 + Math.floor(rng() * (typo.length - 2));
      // A swap is one edit only on its own (search-typo.ts): a two-edit typo adds, drops or replaces letters.
      const kind = pick(rng, edits === 2 ? ['drop', 'double', 'replace'] : ['drop', 'double', 'swap', 'replace']);
      if (kind === 'drop') typo = typo.slice(0, at) + typo.slice(at + 1);
      else if (kind === 'double') typo = typo.slice(0, at) + typo[at] + typo.slice(at);
      else if (kind === 'swap' && at + 1 <= typo.length - 2)
        typo = typo.slice(0, at) + typo[at + 1] + typo[at] + typo.slice(at + 2);
      else {
        const letters = LETTERS.vowels.includes(typo[at]!) ? LETTERS.vowels : LETTERS.consonants;
        typo = typo.slice(0, at) + pick(rng, letters.replace(typo[at]!, '')) + typo.slice(at + 1);
      }
    }
    if (typo.length >= 4 && typoDistance(typo, word) === edits && !isCorpusWord(vocabulary, typo)) return typo;
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
 * The pools a draw picks from, built once per vocabulary: rebuilding them on every draw cost the throughput bench's
 * load generator tens of µs of the shared cores per request. The same arrays, so the same picks.
 */
const poolsOf = (() => {
  const built = new WeakMap<CorpusVocabulary, { common: string[]; clusters: string[][][] }>();
  return (vocabulary: CorpusVocabulary) => {
    let pools = built.get(vocabulary);
    if (!pools) {
      pools = {
        common: [...vocabulary.globalWords, ...vocabulary.bands.flat()],
        clusters: clustersOf(vocabulary),
      };
      built.set(vocabulary, pools);
    }
    return pools;
  };
})();

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
  const pools = poolsOf(vocabulary);
  const band = (domain: number) => pick(rng, vocabulary.bands[domain]!);
  const common = () => pick(rng, pools.common);
  const base = { kind, limit: 20, page: 1 };
  switch (kind) {
    case 'one common word':
      return { ...base, query: common() };
    case 'two common words never together':
      return { ...base, query: domains(rng, 2).map(band).join(' ') };
    case 'three common words never together':
      return { ...base, query: domains(rng, 3).map(band).join(' ') };
    case 'two words that occur together':
    case 'three words that occur together': {
      // A group of words a description holds together (thousands of tools at 100,000), in any order.
      const cluster = [...pick(rng, pools.clusters[Math.floor(rng() * DOMAINS)]!.slice(0, CLUSTERS))];
      for (let i = cluster.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [cluster[i], cluster[j]] = [cluster[j]!, cluster[i]!];
      }
      return { ...base, query: cluster.slice(0, kind.startsWith('two') ? 2 : 3).join(' ') };
    }
    case 'full name with its number': {
      // A tool's whole name the way people type it ("kelo 4242"), drawn from the tools with such a name.
      for (;;) {
        const name = tool(Math.floor(rng() * vocabulary.tools)).name.toLowerCase();
        if (/ \d+$/.test(name)) return { ...base, query: name };
      }
    }
    case 'typo of a description word': {
      // A word of some tool's description, with a typo: a rare word (in a few tools) or a frequent one, alone or after
      // another word of the same description.
      for (;;) {
        const words =
          tool(Math.floor(rng() * vocabulary.tools))
            .description.toLowerCase()
            .match(/[a-z]+/g) ?? [];
        const candidates = words.filter((w) => w.length >= 5 && isCorpusWord(vocabulary, w));
        if (candidates.length < 2) continue;
        const word = pick(rng, candidates);
        const typo = descriptionTypoOf(rng, vocabulary, word);
        const other = pick(
          rng,
          candidates.filter((w) => w !== word),
        );
        return { ...base, query: rng() < 0.5 || !other ? typo : `${other} ${typo}` };
      }
    }
    case 'category word': {
      // A category's name or synonym alone, or after a frequent word of the category's domain ("kelo audio").
      const domain = Math.floor(rng() * DOMAINS);
      const category = pick(rng, DOMAIN_CATEGORIES[domain]!);
      const word = pick(rng, CATEGORY_WORDS[category]!);
      return { ...base, query: rng() < 0.6 ? word : `${band(domain)} ${word}` };
    }
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
