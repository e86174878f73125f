// History and queue position of the detail read (docs/submission-progress.md), as shared scenarios: the same
// cases run on PGlite (sites-progress.test.ts) and on PostgreSQL through the Neon HTTP stand-in
// (test/e2e/sites-progress-neon-http.test.ts). Submissions move through the real pipeline: the local checkout
// pays, the crawl step runs on a crawler transport that opens no socket, an operator decides the review.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CrawlTransport } from '../../../src/deps';
import { queryRows } from '../../../src/db/client';
import { runJob } from '../../../src/jobs/run-job';
import { siteDetailSchema } from '../../../src/submissions/record-schemas';
import { mcpTools } from '../../../functions/mcp/tools';
import { operator } from '../../helpers/raw-requests';
import type { TestApp } from '../../helpers/test-app';
import { callTool, connectMcp } from '../mcp/mcp-client';
import { PageClient, uniqueIp } from '../pages/account-client';

/** A public-looking address the simulated crawler "reaches" (no packet is sent), and a private one it must refuse. */
const PUBLIC_ADDRESS = '93.184.216.34';
const PRIVATE_ADDRESS = '10.20.30.40';
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * A crawler transport with no sockets: `*-ok.example` resolves to a public address and answers an HTML page,
 * `*-private.example` resolves to a private address (the crawler refuses it); anything else is a violation.
 */
export function progressNetwork(): CrawlTransport & { violations: string[] } {
  const violations: string[] = [];
  return {
    violations,
    resolver: async (hostname) => {
      if (hostname.endsWith('-ok.example')) return [PUBLIC_ADDRESS];
      if (hostname.endsWith('-private.example')) return [PRIVATE_ADDRESS];
      violations.push(`resolve ${hostname}`);
      throw new Error(`progress network: unexpected lookup of ${hostname}`);
    },
    fetch: (async (input: RequestInfo | URL) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (!url.hostname.endsWith('-ok.example')) {
        violations.push(`fetch ${url.href}`);
        throw new Error(`progress network: no page at ${url.href}`);
      }
      return new Response(
        '<html><head><title>A tool</title><meta name="description" content="Does things."></head><body>Hi</body></html>',
        {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
        },
      );
    }) as typeof fetch,
  };
}

/** The env and queue the scenarios' app needs: two crawl attempts, jobs recorded (the tests run them). */
export const progressEnv = { CRAWL_MAX_ATTEMPTS: '2', MEMBER_DAILY_LIMIT: '50' };

let n = 0;
const tool = (kind: 'ok' | 'private' = 'ok') => ({
  name: `Progress Tool ${++n} ${crypto.randomUUID().slice(0, 6)}`,
  url: `https://p${n}-${crypto.randomUUID().slice(0, 8)}-${kind}.example/`,
});

type Detail = {
  site_id: string;
  status: string;
  history: Array<{ status: string; at: string; reason?: string }>;
  queue?: { stage: string; position: number; estimated_at?: string };
  [key: string]: unknown;
};

export function progressScenarios(
  app: () => TestApp,
  options: { countStatements: (run: () => Promise<unknown>) => Promise<number> },
) {
  const t = () => app();

  const submit = async (key: string, body = tool()) => {
    const res = await t().request('/api/v1/submit-site', { method: 'POST', key, json: body });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { site_id: string }).site_id;
  };
  const detail = async (key: string, siteId: string): Promise<Detail> => {
    const res = await t().request(`/api/v1/sites/${siteId}`, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Detail;
    // Exactly the declared detail shape: no field the schema lacks, none it requires missing.
    const parsed = siteDetailSchema.safeParse(body);
    expect(parsed.error, JSON.stringify(body)).toBeUndefined();
    expect(parsed.data).toStrictEqual(body);
    return body;
  };
  const crawl = async (siteId: string) =>
    runJob(t().deps, 'crawl', { site_id: siteId }).catch((error: unknown) => error);
  const decide = async (siteId: string, decision: 'approve' | 'reject', reason?: string) => {
    const res = await operator(t(), `/api/v1/admin/sites/${siteId}/review`, {
      method: 'POST',
      json: { decision, ...(reason && { reason }) },
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const countIn = async (statuses: string[]) => {
    const [row] = await queryRows<{ n: number | string }>(
      t().deps.db,
      sql`SELECT count(*) AS n FROM sites WHERE status IN (${sql.join(
        statuses.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
    return Number(row?.n);
  };
  const statuses = (d: Detail) => d.history.map((step) => step.status);
  const expectChronological = (d: Detail) => {
    for (const step of d.history) expect(step.at).toMatch(ISO);
    const times = d.history.map((step) => Date.parse(step.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  };

  it('a paid submission: pending_payment (its pending record) → queued → crawling → pending_review → live', async () => {
    const m = await t().member('none');
    const body = tool();
    const unpaid = await t().request('/api/v1/submit-site', { method: 'POST', key: m.key, json: body });
    expect(unpaid.status).toBe(402);
    const pending = (await unpaid.json()) as { site_id: string; checkout_url: string; submitted_at: string };
    // The unpaid record keeps its exact shape (no history yet: it is not a site record).
    expect(await (await t().request(`/api/v1/sites/${pending.site_id}`, { key: m.key })).json()).not.toHaveProperty(
      'history',
    );

    // The local checkout, as a person pays it.
    const path = new URL(pending.checkout_url).pathname;
    const page = await (await t().request(path)).text();
    const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(page)?.[1];
    expect(token).toBeDefined();
    const paid = await t().request(`${path}/pay`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: token! }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(paid.status).toBe(303);

    const queued = await detail(m.key, pending.site_id);
    expect(statuses(queued)).toEqual(['pending_payment', 'queued']);
    expect(queued.history[0]).toEqual({ status: 'pending_payment', at: pending.submitted_at });
    expect(queued.queue).toMatchObject({ stage: 'crawl' });

    expect(await crawl(pending.site_id)).toMatchObject({ outcome: 'pending_review' });
    expect((await detail(m.key, pending.site_id)).queue).toMatchObject({ stage: 'review' });
    await decide(pending.site_id, 'approve', 'Looks good, internal remark');

    const live = await detail(m.key, pending.site_id);
    expect(live.status).toBe('live');
    expect(statuses(live)).toEqual(['pending_payment', 'queued', 'crawling', 'pending_review', 'live']);
    expectChronological(live);
    expect(live).not.toHaveProperty('queue');
    // Operator notes (the crawled URL, the approval remark, attempt counters) are not reasons for submitters.
    for (const step of live.history) expect(step).not.toHaveProperty('reason');
    expect(JSON.stringify(live)).not.toContain('internal remark');
  });

  it('queue positions: three queued submissions behind another account’s, then the review stage; the other record is unaffected', async () => {
    const a = await t().member('member');
    const b = await t().member('member');
    const crawlAhead = await countIn(['queued', 'crawling']);
    const reviewAhead = await countIn(['pending_review']);
    const other = await submit(b.key);
    const [first, second, third] = [await submit(a.key), await submit(a.key), await submit(a.key)];
    const otherBefore = await detail(b.key, other);
    expect(otherBefore.queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 1 });
    expect((await detail(a.key, first)).queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 2 });
    expect((await detail(a.key, second)).queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 3 });
    expect((await detail(a.key, third)).queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 4 });

    // The first leaves the crawl stage: the ones behind it move up, it is next in review.
    expect(await crawl(first)).toMatchObject({ outcome: 'pending_review' });
    expect((await detail(a.key, first)).queue).toMatchObject({ stage: 'review', position: reviewAhead + 1 });
    expect((await detail(a.key, second)).queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 2 });
    expect((await detail(a.key, third)).queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 3 });
    expect(await crawl(second)).toMatchObject({ outcome: 'pending_review' });
    expect((await detail(a.key, second)).queue).toMatchObject({ stage: 'review', position: reviewAhead + 2 });
    expect((await detail(a.key, third)).queue).toMatchObject({ stage: 'crawl', position: crawlAhead + 2 });
    // Review order is the order of entering review: deciding the first moves the second up.
    await decide(first, 'approve');
    expect((await detail(a.key, second)).queue).toMatchObject({ stage: 'review', position: reviewAhead + 1 });

    // B's record: the same history as before A's submissions moved, and A cannot read it (nor B A's).
    const otherAfter = await detail(b.key, other);
    expect(otherAfter.history).toEqual(otherBefore.history);
    expect(statuses(otherAfter)).toEqual(['queued']);
    expect((await t().request(`/api/v1/sites/${other}`, { key: a.key })).status).toBe(404);
    expect((await t().request(`/api/v1/sites/${first}`, { key: b.key })).status).toBe(404);

    // The list keeps its exact items: no history, no queue.
    const list = (await (await t().request('/api/v1/sites', { key: a.key })).json()) as { sites: object[] };
    expect(list.sites).toHaveLength(3);
    for (const item of list.sites) {
      expect(item).not.toHaveProperty('history');
      expect(item).not.toHaveProperty('queue');
    }
  });

  it('estimated_at: absent without exits in the last 24 hours, from the mean time between exits with them', async () => {
    // Every earlier exit (of any test) moves out of the 24-hour window: no pace data anywhere.
    await t().deps.db.execute(sql`UPDATE site_history SET at = at - interval '2 days'`);
    const m = await t().member('member');
    const waiting = await submit(m.key);
    const reviewed = await submit(m.key);
    await crawl(reviewed);
    await t().deps.db.execute(
      sql`UPDATE site_history SET at = at - interval '2 days' WHERE site_id = ${reviewed}::uuid`,
    );
    const without = await detail(m.key, waiting);
    expect(without.queue).toBeDefined();
    expect(without.queue).not.toHaveProperty('estimated_at');

    // Three crawl-stage exits exactly 10 minutes apart (one statement, one now()): a pace of 10 minutes per place.
    await t().deps.db.execute(
      sql`INSERT INTO site_history (site_id, from_status, to_status, at)
          SELECT gen_random_uuid(), 'crawling', 'pending_review', now() - make_interval(mins => m) FROM unnest(ARRAY[30, 20, 10]) AS m`,
    );
    const clock = async () =>
      Date.parse(
        (
          await queryRows<{ now: string }>(
            t().deps.db,
            sql`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now`,
          )
        )[0]!.now,
      );
    const before = await clock();
    const withPace = await detail(m.key, waiting);
    const after = await clock();
    const { position, estimated_at } = withPace.queue!;
    expect(estimated_at).toMatch(ISO);
    const expected = 10 * 60_000 * position;
    expect(Date.parse(estimated_at!)).toBeGreaterThanOrEqual(before + expected);
    expect(Date.parse(estimated_at!)).toBeLessThanOrEqual(after + expected);
    // The review stage has no exit in the window: its position stands without an estimate.
    const inReview = await detail(m.key, reviewed);
    expect(inReview.queue).toMatchObject({ stage: 'review' });
    expect(inReview.queue).not.toHaveProperty('estimated_at');
  });

  it('a rejection shows its reason in the history', async () => {
    const m = await t().member('member');
    const id = await submit(m.key);
    await crawl(id);
    await decide(id, 'reject', 'Not an AI tool');
    const rejected = await detail(m.key, id);
    expect(statuses(rejected)).toEqual(['queued', 'crawling', 'pending_review', 'rejected']);
    expect(rejected.history.at(-1)).toMatchObject({ status: 'rejected', reason: 'Not an AI tool' });
    expect(rejected).not.toHaveProperty('queue');
    expectChronological(rejected);
  });

  it('a failed crawl: each failed attempt says why in words and names no address', async () => {
    const m = await t().member('member');
    const id = await submit(m.key, tool('private'));
    await crawl(id); // attempt 1 of 2 fails: back to queued for a retry
    const retrying = await detail(m.key, id);
    expect(statuses(retrying)).toEqual(['queued', 'crawling', 'queued']);
    expect(retrying.history[2]).toMatchObject({ status: 'queued', reason: 'the address is not public' });
    expect(retrying.queue).toMatchObject({ stage: 'crawl' });
    await crawl(id); // attempt 2 of 2: crawl_failed
    const failed = await detail(m.key, id);
    expect(statuses(failed)).toEqual(['queued', 'crawling', 'queued', 'crawling', 'crawl_failed']);
    expect(failed.history.at(-1)).toMatchObject({ status: 'crawl_failed', reason: 'the address is not public' });
    expect(failed).not.toHaveProperty('queue');
    expect(JSON.stringify(failed)).not.toMatch(IPV4);
    // The operator's detail does name the address, so its absence above is the filter at work.
    const operatorView = await (await operator(t(), `/api/v1/admin/sites/${id}`)).text();
    expect(operatorView).toContain(PRIVATE_ADDRESS);
  });

  it('MCP get_site_status (the SDK client) returns the same history and queue as REST', async () => {
    const m = await t().member('member');
    const id = await submit(m.key);
    await submit(m.key);
    const rest = await detail(m.key, id);
    const client = await connectMcp(t(), { key: m.key });
    const result = await callTool(client, 'get_site_status', { site_id: id });
    await client.close();
    expect(result.isError).toBeFalsy();
    const mcp = result.structuredContent as Detail;
    const output = mcpTools.find((tool) => tool.name === 'get_site_status')!.outputSchema;
    expect(output.safeParse(mcp).data).toStrictEqual(mcp);
    // estimated_at is "now + pace × position" at each read (pace data may exist from earlier cases): present in both or neither.
    expect(mcp.queue?.estimated_at === undefined).toBe(rest.queue?.estimated_at === undefined);
    const withoutEstimate = (d: Detail) => ({ ...d, queue: { ...d.queue, estimated_at: undefined } });
    expect(withoutEstimate(mcp)).toEqual(withoutEstimate(rest));
    expect(mcp).toMatchObject({
      history: [{ status: 'queued' }],
      queue: { stage: 'crawl', position: rest.queue!.position },
    });
  });

  it('/account shows the queue position; the submission’s page shows it and the history', async () => {
    const m = await t().member('member');
    const id = await submit(m.key);
    const rest = await detail(m.key, id);
    const browser = new PageClient(t(), uniqueIp());
    await browser.signIn(m.email);
    const { res, html } = await browser.page('/account');
    expect(res.status).toBe(200);
    const row = html.slice(html.indexOf(`data-site-id="${id}"`));
    const place = rest.queue!.position;
    const suffix =
      place % 100 >= 11 && place % 100 <= 13
        ? 'th'
        : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[place % 10] ?? 'th');
    expect(row).toContain(`${place}${suffix} in line for crawling`);
    const page = await browser.page(`/account/submissions/${id}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(`<p id="queue">${place}${suffix} in line for crawling`);
    expect(page.html).toMatch(
      /<ol class="timeline" id="timeline"><li data-status="queued"><time datetime="[^"]+">[^<]+<\/time> · queued for crawling<\/li><\/ol>/,
    );
  });

  it('the detail read with history and queue position is one SQL statement', async () => {
    const m = await t().member('member');
    const id = await submit(m.key);
    await crawl(id);
    await detail(m.key, id); // warms the API-key cache, as on any busy key
    expect(await options.countStatements(() => detail(m.key, id))).toBe(1);
  });
}
