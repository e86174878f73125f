import type { RelevanceCase } from './search-relevance-set';

// How good a search's answers are over the judged relevance set (./search-relevance-set.ts), in the two measures the
// test and the benchmark record: precision at 5 and mean reciprocal rank.

/**
 * The share of the first five results a person expects, out of as many as could be there: min(5, expected). A query
 * with one right answer scores 1 when it is among the first five (plain precision at 5 would cap it at 0.2).
 */
export function precisionAt5(results: readonly string[], expected: readonly string[]): number {
  const top = results.slice(0, 5);
  return expected.filter((name) => top.includes(name)).length / Math.min(5, expected.length);
}

/** 1 / the rank of the first expected result among the first ten (0 when none is there). */
export function reciprocalRank(results: readonly string[], expected: readonly string[]): number {
  const rank = results.slice(0, 10).findIndex((name) => expected.includes(name));
  return rank < 0 ? 0 : 1 / (rank + 1);
}

export interface Quality {
  precisionAt5: number;
  meanReciprocalRank: number;
  queries: number;
  /** The cases below 1 on either measure, for the report. */
  misses: Array<{ query: string; category?: string; results: string[]; expected: string[] }>;
}

/** Both measures over every case, given each case's results (names, best first). */
export function quality(answers: ReadonlyArray<{ case: RelevanceCase; results: readonly string[] }>): Quality {
  let precision = 0;
  let reciprocal = 0;
  const misses: Quality['misses'] = [];
  for (const { case: c, results } of answers) {
    const p = precisionAt5(results, c.expected);
    const r = reciprocalRank(results, c.expected);
    precision += p;
    reciprocal += r;
    if (p < 1 || r < 1)
      misses.push({ query: c.query, category: c.category, results: results.slice(0, 5), expected: c.expected });
  }
  const n = Math.max(1, answers.length);
  return { precisionAt5: precision / n, meanReciprocalRank: reciprocal / n, queries: answers.length, misses };
}
