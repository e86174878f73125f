import { normalizeQuery, queryTerms } from '../../src/directory/search-terms';
import { CORRECTIONS_PER_WORD, TYPO_SIMILARITY } from '../../src/directory/search-typo';
import type { CorpusTool } from './search-corpus';

// What directory search must answer over a generated corpus (./search-corpus.ts), computed the slow and obvious
// way: every tool tested against the ranking rules of docs/mcp-and-search.md ("Ranking", "Typo fallback"), then
// sorted. The corpus's words are left alone by the english stemmer, so a tool's lexemes are its words and matching
// is plain string comparison. A query word may not be (a word typed halfway, "vavos", is stemmed to "vavo"), so
// the caller passes each query word's lexeme as PostgreSQL's english configuration makes it. The typo fallback's
// trigram similarity is pg_trgm's, written out below.

const STOP_WORDS = new Set(['for', 'with', 'and', 'your', 'the']);
const words = (text: string) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP_WORDS.has(w));

interface Indexed {
  tool: CorpusTool;
  lowerName: string;
  name: string[];
  all: string[];
}

/** pg_trgm's trigrams of one word: "  w" … "d ", as a set. */
function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const set = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
  return set;
}

/** pg_trgm's similarity of two single words: shared trigrams over all trigrams of either. */
export function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

export interface Expected {
  /** Tool indexes in answer order. */
  order: number[];
  mode: 'text' | 'typo' | 'newest';
}

/** A query word's lexeme in the english configuration ('' for a stop word, which a query drops). */
export type LexemeOf = (word: string) => string;

export function searchOracle(tools: readonly CorpusTool[]) {
  const indexed: Indexed[] = tools.map((tool) => ({
    tool,
    lowerName: tool.name.toLowerCase(),
    name: words(tool.name),
    all: words(`${tool.name} ${tool.description}`),
  }));
  // search_words: the words of live names (3 characters or more, with a letter) and how many names hold each.
  const vocabulary = new Map<string, number>();
  for (const t of indexed)
    for (const w of new Set(t.name))
      if (w.length >= 3 && /[a-z]/.test(w)) vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);

  /** Every word of `fixes` (one list per query word) in `have`, the last one perhaps as a prefix. */
  const holds = (have: string[], fixes: string[][], lastIsPrefix = true) =>
    fixes.every((options, i) =>
      options.some((w) => have.some((h) => h === w || (lastIsPrefix && i === fixes.length - 1 && h.startsWith(w)))),
    );

  /** A tier per tool (undefined: no match), then the answer: tier, newest first. */
  const rank = (tierOf: (t: Indexed) => number | undefined, category: string | undefined): number[] =>
    indexed
      .filter((t) => !category || t.tool.categories.includes(category))
      .map((t) => ({ index: t.tool.index, tier: tierOf(t) }))
      .filter((r): r is { index: number; tier: number } => r.tier !== undefined)
      .sort((a, b) => a.tier - b.tier || a.index - b.index)
      .map((r) => r.index);

  /** Each word's corrections, closest first (search-typo.ts), or undefined when no word changes. */
  function corrections(terms: string[]): string[][] | undefined {
    const fixes = terms.map((term) => {
      if (vocabulary.has(term)) return [term];
      const near = [...vocabulary]
        .map(([word, count]) => ({ word, count, sim: similarity(word, term) }))
        .filter((c) => c.sim >= TYPO_SIMILARITY)
        .sort((a, b) => b.sim - a.sim || b.count - a.count || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
        .slice(0, CORRECTIONS_PER_WORD)
        .map((c) => c.word);
      return near.length ? near : [term];
    });
    return fixes.every((options, i) => options.every((w) => w === terms[i])) ? undefined : fixes;
  }

  /** Each word's lexemes, stop words left out as to_tsquery leaves them out (no word left: nothing matches). */
  const lexemes = (fixes: string[][], lexemeOf: LexemeOf) =>
    fixes.map((options) => options.map(lexemeOf)).filter((options) => options.every((l) => l !== ''));

  return function expected(input: { query: string; category?: string }, lexemeOf: LexemeOf): Expected {
    const query = normalizeQuery(input.query);
    const terms = queryTerms(query);
    if (query === '') return { mode: 'newest', order: rank(() => 0, input.category) };
    const each = lexemes(
      terms.map((t) => [t]),
      lexemeOf,
    );
    const text = rank((t) => {
      if (t.lowerName === query.toLowerCase()) return 0;
      if (each.length === 0 || !holds(t.all, each)) return undefined;
      if (holds(t.name, each, false)) return 1;
      return holds(t.name, each) ? 2 : 3;
    }, input.category);
    if (text.length) return { mode: 'text', order: text };
    const corrected = corrections(terms);
    if (!corrected) return { mode: 'typo', order: [] };
    const fixes = lexemes(corrected, lexemeOf);
    const closest = lexemes(
      corrected.map((options) => [options[0]!]),
      lexemeOf,
    );
    if (fixes.length === 0) return { mode: 'typo', order: [] };
    return {
      mode: 'typo',
      order: rank((t) => (holds(t.name, closest) ? 1 : holds(t.name, fixes) ? 2 : undefined), input.category),
    };
  };
}
