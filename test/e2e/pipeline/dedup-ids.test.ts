// What the pipeline publishes to the queue: ids only, one deduplication id per (site, step, attempt).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnqueueOptions, JobMessage, JobQueue, JobStep } from '../../../src/adapters/queue/types';
import { queryRows } from '../../../src/db/client';
import { runJob } from '../../../src/jobs/run-job';
import { runSweep } from '../../../src/jobs/sweep';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { loopbackOnlyTransport, networkViolations } from '../../helpers/pipeline-harness';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const published: Array<{ step: JobStep; message: JobMessage; options?: EnqueueOptions }> = [];
const recordingQueue: JobQueue = {
  kind: 'qstash',
  enqueue: async (step, message, options) => void published.push({ step, message, options }),
};

let t: TestApp;
let fixture: FixtureSite;
beforeAll(async () => {
  t = await createTestApp({
    env: { CRAWL_ALLOW_PRIVATE: 'true', AUTO_APPROVE: 'false' },
    overrides: { queue: recordingQueue, crawl: loopbackOnlyTransport() },
  });
  fixture = await startFixtureSite({ '/ok': htmlPage('<title>Ok</title>') });
});
afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(networkViolations).toEqual([]);
});

describe('queue messages', () => {
  it('carry ids only, with dedup ids per site, step and attempt', async () => {
    const m = await t.member('member');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: 'Dedup Tool', url: `${fixture.origin}/ok` },
    });
    const { site_id } = (await res.json()) as { site_id: string };
    // The dispatch is deferred off the response path: wait for it to land.
    for (let i = 0; i < 200 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(published).toEqual([
      { step: 'crawl', message: { site_id }, options: { deduplicationId: `crawl-${site_id}-1` } },
    ]);

    await runJob(t.deps, 'crawl', { site_id });
    expect(published.at(-1)).toEqual({
      step: 'review',
      message: { site_id },
      options: { deduplicationId: `review-${site_id}-1` },
    });

    // A second attempt (after a lost crawl) gets its own crawl id.
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'queued', status_note = 'test', crawl_attempts = 1 WHERE id = ${site_id}::uuid`,
    );
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status_changed_at = now() - interval '3 minutes' WHERE id = ${site_id}::uuid`,
    );
    await runSweep(t.deps);
    expect(published.at(-1)).toEqual({
      step: 'crawl',
      message: { site_id },
      options: { deduplicationId: `crawl-${site_id}-2` },
    });
  });
});
