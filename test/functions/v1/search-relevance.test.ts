import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { corpusNames, relevanceCases, relevanceCorpus } from '../../helpers/search-relevance-set';

// The relevance set (test/helpers/search-relevance-set.ts) through GET /api/v1/tools, on the embedded database.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedTools(t.deps.db, relevanceCorpus());
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
  it('has at least 30 queries over the corpus', () => {
    expect(relevanceCases.length).toBeGreaterThanOrEqual(30);
    for (const [, , , expected] of relevanceCases) for (const name of expected) expect(corpusNames()).toContain(name);
  });

  it.each(relevanceCases)('%s: "%s" (category %s)', async (_why, query, category, expected) => {
    const names = await search(query, category);
    // Three expected: the top three. Fewer: those are all the directory has for the query, and nothing else shows.
    expect(expected.length >= 3 ? names.slice(0, 3) : names).toEqual(expected);
  });
});
