import { normalizeQuery, queryTerms } from '../../src/directory/search-terms';
import { TYPO_ATTEMPTS } from '../../src/directory/search-typo';
import type { CorpusTool } from './search-corpus';

// What directory search must answer over a generated corpus (./search-corpus.ts), computed the slow and obvious
// way: every tool tested against the ranking rules of docs/mcp-and-search.md ("Ranking", "Typos"), then sorted. The
// corpus's words are left alone by the english stemmer, so a tool's lexemes are its words and matching is plain
// string comparison. A query word may not be (a word typed halfway, "vavos", is stemmed to "vavo"), so the caller
// passes each query word's lexeme as PostgreSQL's english configuration makes it, and each category's lexemes and
// words as the database holds them. Typos are corrected by edit distance, written out below.

const STOP_WORDS = new Set(['for', 'with', 'and', 'your', 'the']);
const words = (text: string) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP_WORDS.has(w));

interface Indexed {
  tool: CorpusTool;
  lowerName: string;
  name: string[];
  all: string[];
}

/** A category as search sees it: the lexemes that find it, the words a typo may be corrected to, its live tools. */
export interface OracleCategory {
  slug: string;
  lexemes: string[];
  words: string[];
}

/** Levenshtein distance (insertions, deletions, replacements). */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** Edits from `typed` to `word`: two neighbouring letters swapped are one edit on their own, else Levenshtein's. */
export function typoDistance(typed: string, word: string): number {
  for (let i = 0; i + 1 < typed.length; i++) {
    if (typed[i] !== typed[i + 1] && typed.slice(0, i) + typed[i + 1] + typed[i] + typed.slice(i + 2) === word)
      return 1;
  }
  return levenshtein(typed, word);
}

export interface Expected {
  /** Tool indexes in answer order. */
  order: number[];
  mode: 'text' | 'typo' | 'newest';
  /** The corrected query, when the answer had to correct one. */
  corrected?: string;
}

/** A query word's lexeme in the english configuration ('' for a stop word, which a query drops). */
export type LexemeOf = (word: string) => string;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function searchOracle(tools: readonly CorpusTool[], categories: readonly OracleCategory[]) {
  const indexed: Indexed[] = tools.map((tool) => ({
    tool,
    lowerName: tool.name.toLowerCase(),
    name: words(tool.name),
    all: words(`${tool.name} ${tool.description}`),
  }));
  const lexemes = new Set(indexed.flatMap((t) => t.all));
  // search_vocabulary: the words of live names and descriptions (3 to 64 characters, with a letter, no stop word) and
  // how many tools hold each; then the categories' words, each counted as the category's live tools.
  const vocabulary = new Map<string, number>();
  for (const t of indexed)
    for (const w of new Set(t.all))
      if (w.length >= 3 && /[a-z]/.test(w)) vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
  const liveIn = (slug: string) => indexed.filter((t) => t.tool.categories.includes(slug)).length;
  for (const c of categories) {
    const count = liveIn(c.slug);
    for (const w of c.words) if (w.length >= 3) vocabulary.set(w, Math.max(vocabulary.get(w) ?? 0, count));
  }

  /** The categories a query word's lexeme names. */
  const named = (lexeme: string) => categories.filter((c) => c.lexemes.includes(lexeme)).map((c) => c.slug);

  /** Every lexeme in `have`, the last one perhaps as a prefix. */
  const holds = (have: string[], want: string[], lastIsPrefix = true) =>
    want.every((w, i) => have.some((h) => h === w || (lastIsPrefix && i === want.length - 1 && h.startsWith(w))));

  /** The ranked answer of one set of query words (their lexemes; `exact` the name that ranks first). */
  function ranked(terms: string[], exact: string, lexemeOf: LexemeOf, category: string | undefined): number[] {
    const each = terms
      .map((t, i) => ({ lexeme: lexemeOf(t), last: i === terms.length - 1 }))
      .filter((t) => t.lexeme !== '');
    const want = each.map((t) => t.lexeme);
    // A prefix only for the query's last word, and only when it is not a stop word.
    const prefixed = each.length > 0 && each.at(-1)!.last;
    const tierOf = (t: Indexed): number | undefined => {
      if (t.lowerName === exact) return 0;
      if (want.length === 0) return undefined;
      if (holds(t.name, want, false)) return 1;
      if (holds(t.name, want, prefixed)) return 2;
      // Each word in `field` or naming one of the tool's categories (below every text match).
      const byCategory = (field: string[]) =>
        each.every(
          (w, i) =>
            holds(field, [w.lexeme], prefixed && i === each.length - 1) ||
            named(w.lexeme).some((slug) => t.tool.categories.includes(slug)),
        );
      if (holds(t.all, want, prefixed)) return 3;
      return byCategory(t.all) ? 4 : undefined;
    };
    return indexed
      .filter((t) => !category || t.tool.categories.includes(category))
      .map((t) => ({ index: t.tool.index, tier: tierOf(t) }))
      .filter((r): r is { index: number; tier: number } => r.tier !== undefined)
      .sort((a, b) => a.tier - b.tier || a.index - b.index)
      .map((r) => r.index);
  }

  /** The corrected queries to try, closest first (search_corrections), or [] when no word needs correcting. */
  function corrections(terms: string[], lexemeOf: LexemeOf): string[] {
    let changed = false;
    const fixes = terms.map((term, k) => {
      const lexeme = lexemeOf(term);
      const last = k === terms.length - 1;
      const known =
        lexeme === '' ||
        (last ? [...lexemes].some((l) => l.startsWith(lexeme)) : lexemes.has(lexeme)) ||
        named(lexeme).length > 0;
      if (term.length < 4 || !/[a-z]/.test(term) || known) return [term];
      for (const edits of term.length >= 8 ? [1, 2] : [1]) {
        const near = [...vocabulary]
          .map(([word, count]) => ({ word, count, distance: typoDistance(term, word) }))
          .filter((c) => c.distance <= edits)
          .sort((a, b) => a.distance - b.distance || b.count - a.count || compare(a.word, b.word))
          .slice(0, TYPO_ATTEMPTS)
          .map((c) => c.word);
        if (near.length) {
          changed = true;
          return near;
        }
      }
      return [term];
    });
    if (!changed) return [];
    const attempts: string[] = [];
    for (let i = 0; i < TYPO_ATTEMPTS; i++) {
      const one = fixes.map((options) => options[Math.min(i, options.length - 1)]!).join(' ');
      if (!attempts.includes(one)) attempts.push(one);
    }
    return attempts;
  }

  return function expected(
    input: { query: string; category?: string; correct?: boolean },
    lexemeOf: LexemeOf,
  ): Expected {
    const query = normalizeQuery(input.query);
    const terms = queryTerms(query);
    if (query === '') return { mode: 'newest', order: newestOrder(tools, input.category) };
    const text = ranked(terms, query.toLowerCase(), lexemeOf, input.category);
    if (text.length || input.correct === false) return { mode: 'text', order: text };
    for (const attempt of corrections(terms, lexemeOf)) {
      const order = ranked(attempt.split(' '), attempt, lexemeOf, input.category);
      if (order.length) return { mode: 'typo', order, corrected: attempt };
    }
    return { mode: 'text', order: [] };
  };
}

/** The newest first, in `category` (the empty query's answer). */
export const newestOrder = (tools: readonly CorpusTool[], category: string | undefined) =>
  tools
    .filter((t) => !category || t.categories.includes(category))
    .map((t) => t.index)
    .sort((a, b) => a - b);
