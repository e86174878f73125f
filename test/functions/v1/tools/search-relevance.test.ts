import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { corpusNames, recordedQuality, relevanceCases } from '../../../helpers/search-relevance-set';
import { seedRelevanceDirectory } from '../../../helpers/search-relevance-seed';
import { quality } from '../../../helpers/search-relevance-metrics';

// The relevance set (test/helpers/search-relevance-set.ts) through GET /api/v1/tools, on the embedded database: the
// rules' cases give exactly their expected first results, and over every case precision at 5 and mean reciprocal rank
// never fall below the recorded values (quality, not time: `npm run bench -- search` prints the same measures).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedRelevanceDirectory(t.deps.db);
});
afterAll(() => t.close());

let ip = 0;
async function search(q: string, category: string | undefined): Promise<string[]> {
  const params = new URLSearchParams({ q, limit: '10', ...(category && { category }) });
  const res = await t.request(`/api/v1/tools?${params}`, {
    headers: { 'cf-connecting-ip': `10.77.${Math.floor(++ip / 250)}.${ip % 250}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
}

describe('search relevance set', () => {
  it('has at least 100 judged queries over the corpus, each expecting tools of the corpus', () => {
    expect(relevanceCases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(relevanceCases.map((c) => `${c.query}\u0000${c.category ?? ''}`)).size).toBe(relevanceCases.length);
    for (const c of relevanceCases) for (const name of c.expected) expect(corpusNames(), c.query).toContain(name);
  });

  it.each(relevanceCases.filter((c) => c.strict).map((c) => [c.why, c.query, c.category, c.expected] as const))(
    '%s: "%s" (category %s)',
    async (_why, query, category, expected) => {
      const names = await search(query, category);
      // Three expected: the top three. Fewer: those are all the directory has for the query, and nothing else shows.
      expect(expected.length >= 3 ? names.slice(0, 3) : names).toEqual(expected);
    },
  );

  it('keeps precision at 5 and mean reciprocal rank at or above the recorded values', async () => {
    const answers = [];
    for (const c of relevanceCases) answers.push({ case: c, results: await search(c.query, c.category) });
    const measured = quality(answers);
    const report = `P@5 ${measured.precisionAt5.toFixed(4)}, MRR ${measured.meanReciprocalRank.toFixed(4)} over ${measured.queries} queries; below 1: ${JSON.stringify(measured.misses, null, 1)}`;
    expect(measured.precisionAt5, report).toBeGreaterThanOrEqual(recordedQuality.precisionAt5 - 1e-9);
    expect(measured.meanReciprocalRank, report).toBeGreaterThanOrEqual(recordedQuality.meanReciprocalRank - 1e-9);
  });
});
