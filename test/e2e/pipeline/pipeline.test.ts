// The whole pipeline in-process through the app: submit → crawl (loopback fixture) → pending_review → editor decision.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { runJob } from '../../../src/jobs/run-job';
import { runSweep } from '../../../src/jobs/sweep';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { ADMIN_TOKEN } from '../../helpers/test-app';

let t: PipelineApp;
let fixture: FixtureSite;
beforeAll(async () => {
  t = await createPipelineApp({ env: { AUTO_APPROVE: 'false' } });
  fixture = await startFixtureSite();
});
afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(networkViolations).toEqual([]);
});

let n = 0;
/** A fresh fixture page with a unique path and title. */
function page(title: string, extraHead = '') {
  const path = `/tool-${++n}-${crypto.randomUUID().slice(0, 6)}`;
  fixture.route(
    path,
    htmlPage(`<!doctype html><html lang="en"><head><title>${title}</title>
<meta name="description" content="Crawled description of ${title}">${extraHead}</head><body>hi</body></html>`),
  );
  return { path, url: `${fixture.origin}${path}` };
}
const review = (siteId: string, json: unknown) =>
  t.request(`/api/v1/admin/sites/${siteId}/review`, { method: 'POST', key: ADMIN_TOKEN, json });
const outbox = (to: string) =>
  queryRows<{ subject: string; text: string }>(
    t.deps.db,
    sql`SELECT subject, text FROM mail_outbox WHERE "to" = ${to} ORDER BY id`,
  );

describe('pipeline end to end', () => {
  it('crawls to pending_review, then an editor approves: live, notified, and the page shows the crawled title', async () => {
    const m = await t.member('member');
    const { url, path } = page('Crawled &amp; Title of Quillbot X');
    const siteId = await t.submit(m.key, { name: 'Quill Writer', url });
    await t.settle();
    const crawled = await t.site(siteId);
    expect(crawled.status).toBe('pending_review');
    expect(crawled.metadata).toMatchObject({ title: 'Crawled & Title of Quillbot X', finalUrl: url, language: 'en' });
    expect(crawled.review_checks).toMatchObject({ passed: true });
    expect(fixture.hits.filter((h) => h.path === path)).toHaveLength(1);

    const res = await review(siteId, { decision: 'approve' });
    expect(res.status).toBe(200);
    const record = (await res.json()) as { live_url: string };
    expect(record).toEqual({
      site_id: siteId,
      name: 'Quill Writer',
      url,
      status: 'live',
      is_feature: false,
      is_sponsor: false,
      submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/),
      live_url: 'http://tooldir.test/tools/quill-writer',
      crawled_url: url,
      // Live and not re-checked yet (docs/health.md); the site shows what the listing shows.
      health: {
        state: 'unchecked',
        reason: 'not checked yet',
        last_checked_at: null,
        last_ok_at: null,
        failing_since: null,
        moved_to: null,
      },
      site_changed: false,
    });
    const pageRes = await t.request(new URL(record.live_url).pathname);
    expect(pageRes.status).toBe(200);
    expect(await pageRes.text()).toContain('Crawled &amp; Title of Quillbot X');

    const read = await t.request(`/api/v1/sites/${siteId}`, { key: m.key });
    // The detail read is the review's record plus its history (docs/submission-progress.md).
    const { history, ...readRecord } = (await read.json()) as { history: Array<{ status: string }> };
    expect(readRecord).toEqual(record);
    expect(history.map((step) => step.status)).toEqual(['queued', 'crawling', 'pending_review', 'live']);
    expect((await t.history(siteId)).map((h) => h.to_status)).toEqual(['queued', 'crawling', 'pending_review', 'live']);
    const mails = await outbox(m.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('http://tooldir.test/tools/quill-writer');
  });

  it('rejects with a reason (mailed to the submission e-mail), refuses approving a never-published rejection, and takes down + republishes a live tool', async () => {
    const m = await t.member('member');
    const rejected = await t.submit(m.key, {
      name: 'Spammy Thing',
      url: page('Spam').url,
      email: 'contact@spammy.example',
    });
    const later = await t.submit(m.key, { name: 'Fine Tool', url: page('Fine').url });
    await t.settle();
    const res = await review(rejected, { decision: 'reject', reason: 'Not an AI tool' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ site_id: rejected, status: 'rejected' });
    expect((await t.site(rejected)).status).toBe('rejected');
    expect((await outbox('contact@spammy.example'))[0]!.text).toContain('Reason: Not an AI tool');
    expect((await t.history(rejected)).at(-1)).toEqual({
      from_status: 'pending_review',
      to_status: 'rejected',
      note: 'rejected by an editor: Not an AI tool',
    });

    const again = await review(rejected, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: { code: 'conflict', message: expect.stringContaining('before it was ever published') },
    });
    expect((await review(rejected, { decision: 'reject' })).status).toBe(409);

    expect((await review(later, { decision: 'approve' })).status).toBe(200);
    const down = await review(later, { decision: 'reject', reason: 'Broken site' });
    expect(await down.json()).toMatchObject({ status: 'rejected' });
    expect((await t.request('/tools/fine-tool')).status).toBe(404);
    const back = await review(later, { decision: 'approve' });
    expect(await back.json()).toMatchObject({ status: 'live', live_url: 'http://tooldir.test/tools/fine-tool' });
    expect((await t.request('/tools/fine-tool')).status).toBe(200);
  });

  it('ends in crawl_failed after CRAWL_MAX_ATTEMPTS attempts, keeping the last error', async () => {
    const m = await t.member('member');
    const path = `/broken-${crypto.randomUUID().slice(0, 6)}`;
    fixture.route(path, (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>down</h1>'));
    const siteId = await t.submit(m.key, { name: 'Broken Tool', url: `${fixture.origin}${path}` });
    await t.settle();
    const site = await t.site(siteId);
    expect(site).toMatchObject({ status: 'crawl_failed', crawl_attempts: 3 });
    expect(site).toMatchObject({ crawl_error_kind: 'http_error', crawl_error: expect.stringMatching(/HTTP 500$/) });
    expect(fixture.hits.filter((h) => h.path === path)).toHaveLength(3);
    expect((await t.history(siteId)).map((h) => h.to_status)).toEqual([
      'queued',
      'crawling',
      'queued',
      'crawling',
      'queued',
      'crawling',
      'crawl_failed',
    ]);
    expect((await review(siteId, { decision: 'approve' })).status).toBe(409);
    const res = await t.request(`/api/v1/sites/${siteId}`, { key: m.key });
    expect(await res.json()).toMatchObject({
      status: 'crawl_failed',
      crawl_error: { code: 'http_error', message: 'the site answered HTTP 500' },
    });
  });

  it('treats duplicate deliveries as no-ops: one crawl for two concurrent deliveries, 2xx for late ones', async () => {
    const m = await t.member('member');
    const { url, path } = page('Twice');
    // Insert without the pipeline noticing: hold the queue by delivering by hand.
    const siteId = await t.submit(m.key, { name: 'Twice Delivered', url });
    await t.settle();
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'queued', status_note = 'test: again' WHERE id = ${siteId}::uuid`,
    );
    const before = fixture.hits.filter((h) => h.path === path).length;
    const results = await Promise.all([
      runJob(t.deps, 'crawl', { site_id: siteId }),
      runJob(t.deps, 'crawl', { site_id: siteId }),
    ]);
    await t.settle();
    expect(results.map((r) => r.outcome).sort()).toEqual(['pending_review', 'skipped']);
    expect(fixture.hits.filter((h) => h.path === path).length - before).toBe(1);

    const late = await t.request('/api/jobs/crawl', { method: 'POST', key: ADMIN_TOKEN, json: { site_id: siteId } });
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ ok: true, outcome: 'skipped' });
    expect((await review(siteId, { decision: 'approve' })).status).toBe(200);
    const lateReview = await t.request('/api/jobs/review', {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { site_id: siteId },
    });
    expect(await lateReview.json()).toMatchObject({ ok: true, outcome: 'skipped' });
    expect((await t.site(siteId)).status).toBe('live');
  });

  it('gives colliding names distinct readable slugs', async () => {
    const m = await t.member('memberFeature');
    const a = await t.submit(m.key, { name: 'Alpha Tool', url: page('A').url });
    const b = await t.submit(m.key, { name: 'alpha-tool!', url: page('B').url });
    const c = await t.submit(m.key, { name: 'ALPHA  TOOL?', url: page('C').url });
    await t.settle();
    const urls = [];
    for (const id of [a, b, c])
      urls.push(((await (await review(id, { decision: 'approve' })).json()) as { live_url: string }).live_url);
    expect(urls).toEqual([
      'http://tooldir.test/tools/alpha-tool',
      'http://tooldir.test/tools/alpha-tool-2',
      'http://tooldir.test/tools/alpha-tool-3',
    ]);
  });

  it('the sweep recovers a crawl stuck in crawling and re-dispatches a site queued too long', async () => {
    const m = await t.member('memberFeature');
    const stuck = await t.submit(m.key, { name: 'Stuck Crawl', url: page('Stuck').url });
    const dropped = await t.submit(m.key, { name: 'Dropped Dispatch', url: page('Dropped').url });
    await t.settle();
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'crawling', crawl_attempts = 1, status_note = 'test: crash' WHERE id = ${stuck}::uuid`,
    );
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'queued', status_note = 'test: lost' WHERE id = ${dropped}::uuid`,
    );
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status_changed_at = now() - interval '11 minutes' WHERE id IN (${stuck}::uuid, ${dropped}::uuid)`,
    );
    const report = await runSweep(t.deps);
    expect(report).toMatchObject({ recovered: 1 });
    expect(report.redispatched).toBeGreaterThanOrEqual(2);
    await t.settle();
    expect((await t.site(stuck)).status).toBe('pending_review');
    expect((await t.site(stuck)).crawl_attempts).toBe(2);
    expect((await t.site(dropped)).status).toBe('pending_review');
    expect((await t.history(stuck)).map((h) => h.note)).toContain('sweep: crawl attempt 1 did not finish');
  });

  it('the sweep runs the review of a crawled site whose review step was lost', async () => {
    const m = await t.member('memberFeature');
    const id = await t.submit(m.key, { name: 'Lost Review', url: page('Lost review').url });
    await t.settle();
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET review_checks = NULL, status_changed_at = now() - interval '3 minutes' WHERE id = ${id}::uuid`,
    );
    expect((await runSweep(t.deps)).redispatched).toBeGreaterThanOrEqual(1);
    await t.settle();
    expect((await t.site(id)).review_checks).toMatchObject({ passed: true });
  });

  it('the sweep purges pending-payment records 30 days past expiry and keeps younger ones', async () => {
    const m = await t.member('none');
    const [old, young] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [id, days] of [
      [old, 31],
      [young, 29],
    ] as const) {
      await queryRows(
        t.deps.db,
        sql`INSERT INTO pending_submissions (id, account_id, name, url, canonical_url, normalized_name, plan, reason, state, checkout_session_id, checkout_url, expires_at)
            VALUES (${id}::uuid, ${m.accountId}::uuid, ${`Pending ${id}`}, ${`https://${id}.example`}, ${`https://${id}.example`}, ${`pending ${id}`},
              'basic', 'no_membership', 'expired', ${`cs_${id}`}, 'https://checkout.example/x', now() - ${`${days} days`}::interval)`,
      );
    }
    expect((await runSweep(t.deps)).purged).toBeGreaterThanOrEqual(1);
    const left = await queryRows<{ id: string }>(
      t.deps.db,
      sql`SELECT id FROM pending_submissions WHERE id IN (${old}::uuid, ${young}::uuid)`,
    );
    expect(left).toEqual([{ id: young }]);
  });
});
