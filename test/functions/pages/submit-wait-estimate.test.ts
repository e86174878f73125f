import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { estimateWait, waitWords } from '../../../src/submissions/wait-estimate';
import { createTestApp, type TestApp, uniqueName, uniqueUrl } from '../../helpers/test-app';
import { PageClient, uniqueIp } from './account-client';

// The wait shown on /submit before anyone pays: the live crawl and review queues and their pace, computed as the
// detail read computes them (docs/submission-progress.md), and a plain sentence when there is no pace yet.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(); // its own database: the queues below are exactly what this file puts there
});
afterAll(() => t.close());

/** `n` sites of a member, moved to `status` (the history trigger records the change at now()). */
async function sitesIn(status: 'queued' | 'pending_review', n: number): Promise<string[]> {
  const m = await t.member('memberFeature');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName('Queue'), url: uniqueUrl() },
    });
    ids.push(((await res.json()) as { site_id: string }).site_id);
  }
  if (status !== 'queued')
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = ${status} WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`,
    );
  return ids;
}

/** Exits of a stage over the last hours, `spacingMinutes` apart (what the pace is measured from). */
async function exits(from: string, to: string, count: number, spacingMinutes: number, siteId: string) {
  for (let i = 0; i < count; i++) {
    await queryRows(
      t.deps.db,
      sql`INSERT INTO site_history (site_id, from_status, to_status, at)
      VALUES (${siteId}::uuid, ${from}, ${to}, now() - make_interval(mins => ${10 + i * spacingMinutes}))`,
    );
  }
}

describe('estimateWait', () => {
  it('has no estimate without a pace, and the page says so plainly with the queue lengths', async () => {
    const empty = await estimateWait({ deps: t.deps });
    expect(empty).toEqual({ waiting: { crawl: 0, review: 0 }, seconds: null });
    const client = new PageClient(t, uniqueIp());
    await client.signIn(`wait-${crypto.randomUUID().slice(0, 6)}@example.com`);
    const { html } = await client.page('/submit');
    expect(html).toContain(
      `<p id="wait-estimate">We cannot estimate the wait right now: too few submissions went through crawling and review in the last 24 hours to know the pace. 0 submissions wait to be crawled and 0 for an editor's review.</p>`,
    );
  });

  it('is the pipeline of the two stages at their pace: max((C+1)·crawl + review, (R+C+1)·review)', async () => {
    const crawling = await sitesIn('queued', 2);
    await sitesIn('pending_review', 3);
    // Crawl exits every 6 minutes, review exits every 60 minutes (both within the last 24 hours).
    await exits('crawling', 'pending_review', 5, 6, crawling[0]!);
    await exits('pending_review', 'live', 4, 60, crawling[1]!);
    const estimate = await estimateWait({ deps: t.deps });
    expect(estimate.waiting).toEqual({ crawl: 2, review: 3 });
    // crawl: (2+1)·360 s + 3600 s = 4680 s; review: (3+2+1)·3600 s = 21600 s → 6 hours.
    expect(estimate.seconds).toBeCloseTo(21_600, 0);
    const client = new PageClient(t, uniqueIp());
    await client.signIn(`wait-${crypto.randomUUID().slice(0, 6)}@example.com`);
    const { html } = await client.page('/submit');
    expect(html).toContain(
      `a tool submitted now is published in <strong id="wait-estimate">about 6 hours</strong>, if the editor approves it. 2 submissions wait to be crawled and 3 for an editor's review.`,
    );
  });
});

describe('waitWords', () => {
  it('rounds to minutes, hours or days, and says nothing without an estimate', () => {
    expect(waitWords(null)).toBeUndefined();
    expect(waitWords(Number.NaN)).toBeUndefined();
    expect(waitWords(30)).toBe('a few minutes');
    expect(waitWords(20 * 60)).toBe('about 20 minutes');
    expect(waitWords(89 * 60)).toBe('about 89 minutes');
    expect(waitWords(2 * 3600)).toBe('about 2 hours');
    expect(waitWords(47 * 3600)).toBe('about 47 hours');
    expect(waitWords(3 * 86_400)).toBe('about 3 days');
  });
});
