// POST /api/v1/sites/{site_id}/retry and MCP retry_site: a submitter puts a failed crawl back in the queue,
// without support (docs/pipeline.md "Retries"). Through the public surface, with the real pipeline behind it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EnqueueOptions, JobMessage, JobQueue, JobStep } from '../../../src/adapters/queue/types';
import { queryRows } from '../../../src/db/client';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import {
  createPipelineApp,
  loopbackOnlyTransport,
  networkViolations,
  type PipelineApp,
} from '../../helpers/pipeline-harness';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from '../../functions/mcp/mcp-client';

let t: PipelineApp;
let fixture: FixtureSite;
let flakyDown = true;
// Each test has its own account: retries share the account's submit bucket (10 a minute) with submits.
let member: Awaited<ReturnType<PipelineApp['member']>>;

beforeAll(async () => {
  t = await createPipelineApp({ env: { CRAWL_MAX_ATTEMPTS: '2', AUTO_APPROVE: 'false' } });
  fixture = await startFixtureSite({
    '/flaky': (request, response) =>
      flakyDown
        ? void response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>down</h1>')
        : htmlPage('<title>Back Up</title>')(request, response),
    '/down': (_request, response) => void response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>'),
    '/fine': htmlPage('<title>Fine</title>'),
  });
});

beforeEach(async () => {
  member = await t.member('memberFeature');
});

afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(networkViolations).toEqual([]);
});

const unique = () => crypto.randomUUID().slice(0, 8);
const retry = (siteId: string, key = member.key) => t.request(`/api/v1/sites/${siteId}/retry`, { method: 'POST', key });

async function failedSite(path: string): Promise<string> {
  const id = await t.submit(member.key, {
    name: `Retry Tool ${unique()}`,
    url: `http://r-${unique()}.localhost:${fixture.port}${path}`,
  });
  await t.settle();
  expect((await t.site(id)).status).toBe('crawl_failed');
  return id;
}

describe('retrying a failed crawl', () => {
  it('puts a crawl_failed site back to queued (202 with the record), and a fixed site goes on to review', async () => {
    flakyDown = true;
    const id = await failedSite('/flaky');
    expect((await t.site(id)).crawl_attempts).toBe(2);

    flakyDown = false;
    const res = await retry(id);
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ site_id: id, status: 'queued' });
    expect(body).not.toHaveProperty('crawl_error');

    await t.settle();
    const site = await t.site(id);
    expect(site.status).toBe('pending_review');
    // Attempts only grow: the retry's crawl is attempt 3, with its own deduplication id.
    expect(site.crawl_attempts).toBe(3);
    const history = await t.history(id);
    expect(history.map((h) => [h.from_status, h.to_status])).toEqual([
      [null, 'queued'],
      ['queued', 'crawling'],
      ['crawling', 'queued'],
      ['queued', 'crawling'],
      ['crawling', 'crawl_failed'],
      ['crawl_failed', 'queued'],
      ['queued', 'crawling'],
      ['crawling', 'pending_review'],
    ]);
    expect(history[5]!.note).toBe('retry requested by the submitter');
  });

  it('gives the retry a full round of attempts, counted afresh in what the submitter reads', async () => {
    const id = await failedSite('/down');
    expect((await retry(id)).status).toBe(202);
    await t.settle();
    const site = await t.site(id);
    expect(site.status).toBe('crawl_failed');
    expect(site.crawl_attempts).toBe(4);
    const notes = (await t.history(id)).map((h) => h.note).filter((n) => n?.startsWith('attempt'));
    expect(notes).toEqual([
      'attempt 1 of 2 failed: the site answered HTTP 503',
      'attempt 2 of 2 failed: the site answered HTTP 503',
      'attempt 1 of 2 failed: the site answered HTTP 503',
      'attempt 2 of 2 failed: the site answered HTTP 503',
    ]);
  });

  it('allows 3 retries per site and UTC day (REST and MCP share them), then answers 429 with Retry-After until midnight', async () => {
    const id = await failedSite('/down');
    const mcp = await connectMcp(t, { key: member.key });
    for (const via of ['rest', 'mcp', 'rest'] as const) {
      if (via === 'rest') expect((await retry(id)).status).toBe(202);
      else {
        const result = await callTool(mcp, 'retry_site', { site_id: id });
        expect(result.isError).toBeFalsy();
        expect(resultJson(result)).toMatchObject({ site_id: id, status: 'queued' });
      }
      await t.settle();
      expect((await t.site(id)).status).toBe('crawl_failed');
    }
    const refused = await retry(id);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: 'This submission was retried 3 times today; retries start again at 00:00 UTC.',
      },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    const viaMcp = await callTool(mcp, 'retry_site', { site_id: id });
    expect(viaMcp.isError).toBe(true);
    expect(resultJson(viaMcp)).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await t.site(id)).status).toBe('crawl_failed');

    // The allowance is per UTC day: yesterday's retries do not count today.
    await queryRows(t.deps.db, sql`UPDATE sites SET manual_retries_on = manual_retries_on - 1 WHERE id = ${id}::uuid`);
    expect((await retry(id)).status).toBe(202);
    await t.settle();
    await mcp.close();
  });

  it('refuses other states with 409 invalid_state naming the state, and changes nothing', async () => {
    const live = await t.submit(member.key, {
      name: `Fine Tool ${unique()}`,
      url: `http://f-${unique()}.localhost:${fixture.port}/fine`,
    });
    await t.settle();
    const before = await t.history(live);
    const res = await retry(live);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: {
        code: 'invalid_state',
        message: 'Only a submission whose crawl failed (crawl_failed) can be retried; this one is pending_review.',
      },
    });
    expect(await t.history(live)).toEqual(before);

    // An unpaid submission is not a site yet.
    const none = await t.member('none');
    const pay = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: none.key,
      json: { name: `Unpaid ${unique()}`, url: `https://unpaid-${unique()}.example/` },
    });
    expect(pay.status).toBe(402);
    const unpaid = await retry(((await pay.json()) as { site_id: string }).site_id, none.key);
    expect(unpaid.status).toBe(409);
    expect(((await unpaid.json()) as { error: { message: string } }).error.message).toMatch(
      /this one is pending_payment\.$/,
    );
  });

  it("answers 404 for another account's site, an unknown id and a malformed id; 401 without a key", async () => {
    const id = await failedSite('/down');
    const stranger = await t.member('member');
    for (const [siteId, key] of [
      [id, stranger.key],
      [crypto.randomUUID(), member.key],
      ['not-a-uuid', member.key],
      ['%00', member.key],
    ] as const) {
      const res = await retry(siteId, key);
      expect(res.status, siteId).toBe(404);
      expect(await res.json()).toEqual({
        error: { code: 'not_found', message: 'No submission with this id belongs to you.' },
      });
    }
    expect((await t.request(`/api/v1/sites/${id}/retry`, { method: 'POST' })).status).toBe(401);
    expect((await t.site(id)).status).toBe('crawl_failed');
    const wrongMethod = await t.request(`/api/v1/sites/${id}/retry`, { key: member.key });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(await wrongMethod.json()).toEqual({
      error: { code: 'method_not_allowed', message: expect.stringMatching(/is not allowed on/) },
    });
  });
});

describe('concurrent retries', () => {
  const published: Array<{ step: JobStep; message: JobMessage; options?: EnqueueOptions }> = [];
  const recordingQueue: JobQueue = {
    kind: 'qstash',
    enqueue: async (step, message, options) => void published.push({ step, message, options }),
  };
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ overrides: { queue: recordingQueue, crawl: loopbackOnlyTransport() } });
  });
  afterAll(() => app.close());

  it('five at once: one 202 and one crawl dispatch (its own deduplication id), the others 409; one retry counted', async () => {
    const m = await app.member('member');
    const res = await app.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: `Race ${unique()}`, url: `https://race-${unique()}.example/` },
    });
    const { site_id } = (await res.json()) as { site_id: string };
    await queryRows(
      app.deps.db,
      sql`UPDATE sites SET status = 'crawl_failed', crawl_attempts = 3, status_note = 'test' WHERE id = ${site_id}::uuid`,
    );
    for (let i = 0; i < 200 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    published.length = 0;

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => app.request(`/api/v1/sites/${site_id}/retry`, { method: 'POST', key: m.key })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409]);
    for (let i = 0; i < 200 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(published).toEqual([
      { step: 'crawl', message: { site_id }, options: { deduplicationId: `crawl-${site_id}-4` } },
    ]);
    const [row] = await queryRows<{ manual_retries: number; crawl_attempt_offset: number }>(
      app.deps.db,
      sql`SELECT manual_retries, crawl_attempt_offset FROM sites WHERE id = ${site_id}::uuid`,
    );
    expect({ retries: Number(row!.manual_retries), offset: Number(row!.crawl_attempt_offset) }).toEqual({
      retries: 1,
      offset: 3,
    });
  });
});
