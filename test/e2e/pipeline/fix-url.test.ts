// Fixing a failed crawl's address (docs/pipeline.md "Fixing the address"): PATCH /api/v1/sites/{site_id} with url
// and MCP edit_site, through the public surface with the real pipeline behind them; the crawl-failed mail; and an
// http:// site crawled over http only when its https form gives no page, which the record says.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import type { CrawlTransport } from '../../../src/deps';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import {
  createPipelineApp,
  loopbackOnlyTransport,
  networkViolations,
  type PipelineApp,
} from '../../helpers/pipeline-harness';
import { moveSite } from '../../helpers/submission-states';
import { callTool, connectMcp, resultJson } from '../../functions/mcp/mcp-client';

let t: PipelineApp;
let fixture: FixtureSite;

beforeAll(async () => {
  t = await createPipelineApp({ env: { CRAWL_MAX_ATTEMPTS: '1', AUTO_APPROVE: 'false' } });
  fixture = await startFixtureSite({
    '/down': (_request, response) => void response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>'),
    '/fine': htmlPage('<title>Fine</title>'),
  });
});

afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(networkViolations).toEqual([]);
});

const unique = () => crypto.randomUUID().slice(0, 8);
const at = (path: string) => `http://f-${unique()}.localhost:${fixture.port}${path}`;
const patch = (siteId: string, json: unknown, key: string) =>
  t.request(`/api/v1/sites/${siteId}`, { method: 'PATCH', key, json });
const detail = async (siteId: string, key: string) => (await t.request(`/api/v1/sites/${siteId}`, { key })).json();
const mailsTo = (email: string) =>
  queryRows<{ subject: string; text: string; headers: Record<string, string> | string | null }>(
    t.deps.db,
    sql`SELECT subject, text, headers FROM mail_outbox WHERE "to" = ${email} ORDER BY id`,
  );

async function failedSite(
  member: { key: string },
  name = `Fix Tool ${unique()}`,
): Promise<{ id: string; url: string }> {
  const url = at('/down');
  const id = await t.submit(member.key, { name, url });
  await t.settle();
  expect((await t.site(id)).status).toBe('crawl_failed');
  return { id, url };
}

describe('changing the address of a failed crawl', () => {
  it('mails the failure with its reason and the fix, then a new url queues it again, counted as a retry, and it is crawled', async () => {
    const member = await t.member('memberFeature');
    const { id } = await failedSite(member);
    const [failure] = await mailsTo(member.email);
    expect(failure!.subject).toMatch(/^We could not read Fix Tool .+'s website$/);
    expect(failure!.text).toContain('could not: the site answered HTTP 503.');
    expect(failure!.text).toContain('How to fix it: Make the page answer normally (HTTP 200)');
    expect(failure!.text).toContain('tooldir edit <site_id> --url <address>');
    expect(failure!.text).toContain(`Your submission's page: ${t.deps.origin}/account/submissions/${id}`);
    // A failure is transactional: no unsubscribe link, no List-Unsubscribe header.
    expect(failure!.text).not.toContain('/mail/unsubscribe/');
    expect(failure!.headers).toBeNull();

    const fixed = at('/fine');
    const res = await patch(id, { url: fixed }, member.key);
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ site_id: id, status: 'queued', url: fixed });
    expect(body).not.toHaveProperty('crawl_error');
    await t.settle();
    const after = await detail(id, member.key);
    expect(after).toMatchObject({ status: 'pending_review', url: fixed, crawled_url: fixed });
    expect(after.history.map((h: { status: string; reason?: string }) => [h.status, h.reason])).toEqual([
      ['queued', undefined],
      ['crawling', undefined],
      ['crawl_failed', 'the site answered HTTP 503'],
      ['queued', 'address changed by the submitter; crawled again'],
      ['crawling', undefined],
      ['pending_review', undefined],
    ]);
    const [row] = await queryRows<{ manual_retries: number; canonical_url: string }>(
      t.deps.db,
      sql`SELECT manual_retries, canonical_url FROM sites WHERE id = ${id}::uuid`,
    );
    expect(Number(row!.manual_retries)).toBe(1);
    expect(row!.canonical_url).toBe(fixed.replace('http://', 'https://').replace(/\/fine$/, '/fine'));
    // The old address is free again: another account may submit it.
    expect((await mailsTo(member.email)).length).toBe(1);
  });

  it('refuses other states, bad bodies, strangers and taken addresses, changing nothing', async () => {
    const member = await t.member('memberFeature');
    const { id, url } = await failedSite(member);
    const before = await detail(id, member.key);

    const review = await t.submit(member.key, { name: `In Review ${unique()}`, url: at('/fine') });
    await t.settle();
    const inReview = await patch(review, { url: at('/fine') }, member.key);
    expect(inReview.status).toBe(409);
    expect(await inReview.json()).toEqual({
      error: {
        code: 'invalid_state',
        message:
          'Only a submission whose crawl failed (crawl_failed) can change its address; this one is pending_review.',
      },
    });

    // Someone else's live tool: named, with its public page; no site_id (it is not the caller's).
    const stranger = await t.member('member');
    const theirs = await t.submit(stranger.key, { name: `Their Live ${unique()}`, url: at('/fine') });
    await t.settle();
    await moveSite(t.deps, theirs, 'live');
    const [their] = await queryRows<{ url: string; name: string; live_url: string }>(
      t.deps.db,
      sql`SELECT url, name, live_url FROM sites WHERE id = ${theirs}::uuid`,
    );
    const taken = await patch(id, { url: their!.url.replace('http://', 'https://www.') }, member.key);
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({
      error: {
        code: 'already_submitted',
        message: `This address is already listed as "${their!.name}": ${their!.live_url}`,
      },
    });

    // One's own other submission: named, with its page and its site_id.
    const [mine] = await queryRows<{ url: string; name: string }>(
      t.deps.db,
      sql`SELECT url, name FROM sites WHERE id = ${review}::uuid`,
    );
    const own = await patch(id, { url: mine!.url }, member.key);
    expect(own.status).toBe(409);
    expect(await own.json()).toEqual({
      error: {
        code: 'already_submitted',
        message: `You already submitted this address as "${mine!.name}": ${t.deps.origin}/account/submissions/${review}`,
        site_id: review,
      },
    });

    // Someone else's record that is not live stays anonymous.
    const hidden = await t.submit(stranger.key, { name: `Their Queue ${unique()}`, url: at('/down') });
    await t.settle();
    const [hiddenRow] = await queryRows<{ url: string }>(
      t.deps.db,
      sql`SELECT url FROM sites WHERE id = ${hidden}::uuid`,
    );
    const anonymous = await patch(id, { url: hiddenRow!.url }, member.key);
    expect(await anonymous.json()).toEqual({
      error: { code: 'already_submitted', message: 'This address has already been submitted by someone else.' },
    });

    for (const [bad, words] of [
      [{ url: 'ftp://example.com/' }, 'url: The address must start with http'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 42 }, 'url must be a string'],
      [{ url: at('/fine'), name: 'Renamed Too' }, 'Change url on its own'],
    ] as const) {
      const res = await patch(id, bad, member.key);
      expect(res.status).toBe(400);
      const error = (await res.json()).error;
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain(words);
    }
    expect((await patch(id, { url: at('/fine') }, stranger.key)).status).toBe(404);
    expect((await patch(crypto.randomUUID(), { url: at('/fine') }, member.key)).status).toBe(404);

    const unpaid = await t.member('none');
    const pending = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: unpaid.key,
      json: { name: `Unpaid ${unique()}`, url: at('/x') },
    });
    const pendingId = (await pending.json()).site_id;
    expect((await (await patch(pendingId, { url: at('/fine') }, unpaid.key)).json()).error).toEqual({
      code: 'invalid_state',
      message:
        'Only a submission whose crawl failed (crawl_failed) can change its address; this one is pending_payment.',
    });

    const still = await detail(id, member.key);
    expect(still).toEqual(before);
    expect(still.url).toBe(url);
  });

  it('counts against the retries of the day: the fourth change or retry of the day is 429', async () => {
    const member = await t.member('memberFeature');
    const { id } = await failedSite(member);
    for (let i = 0; i < 3; i++) {
      const res =
        i === 1
          ? await t.request(`/api/v1/sites/${id}/retry`, { method: 'POST', key: member.key })
          : await patch(id, { url: at('/down') }, member.key);
      expect(res.status).toBe(202);
      await t.settle();
    }
    const refused = await patch(id, { url: at('/fine') }, member.key);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toEqual({
      code: 'rate_limited',
      message:
        'This submission was retried 3 times today (a new address counts as a retry); retries start again at 00:00 UTC.',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.site(id)).status).toBe('crawl_failed');
  });

  it('under concurrency: two changes of one site give one 202; two sites racing for one address give one 202', async () => {
    const member = await t.member('memberFeature');
    const { id } = await failedSite(member);
    const [a, b] = [at('/fine'), at('/fine')];
    const answers = await Promise.all([patch(id, { url: a }, member.key), patch(id, { url: b }, member.key)]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const winner = answers[0]!.status === 202 ? a : b;
    expect((await detail(id, member.key)).url).toBe(winner);
    await t.settle();

    const one = await failedSite(member);
    const two = await failedSite(member);
    const contested = at('/fine');
    const race = await Promise.all([
      patch(one.id, { url: contested }, member.key),
      patch(two.id, { url: contested }, member.key),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([202, 409]);
    const loser = race.find((r) => r.status === 409)!;
    expect((await loser.json()).error.code).toBe('already_submitted');
    await t.settle();
  });

  it('MCP edit_site takes url alone, with the same answers', async () => {
    const member = await t.member('memberFeature');
    const { id } = await failedSite(member);
    const mcp = await connectMcp(t, { key: member.key });
    const bad = await callTool(mcp, 'edit_site', { site_id: id, url: 'mailto:me@example.com' });
    expect(bad.isError).toBe(true);
    expect(resultJson(bad)).toMatchObject({ error: { code: 'invalid_request' } });
    const fixed = at('/fine');
    const result = await callTool(mcp, 'edit_site', { site_id: id, url: fixed });
    expect(result.isError).toBeFalsy();
    expect(resultJson(result)).toMatchObject({ site_id: id, status: 'queued', url: fixed });
    await t.settle();
    expect((await t.site(id)).status).toBe('pending_review');
    await mcp.close();
  });
});

describe('an http:// site is crawled over https first', () => {
  let h: PipelineApp;
  const httpsAsked: string[] = [];
  beforeAll(async () => {
    // Default ports cannot be bound here: `*.default.localhost` on port 80 goes to the fixture's port, port 443
    // (https) is refused like a host without TLS, except for `tls.default.localhost`, served by the fixture too.
    const loopback = loopbackOnlyTransport();
    const transport: CrawlTransport = {
      resolver: loopback.resolver,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
        if (url.hostname.endsWith('.default.localhost') && url.port === '') {
          if (url.protocol === 'https:') {
            httpsAsked.push(url.href);
            if (!url.hostname.startsWith('tls.')) {
              throw new TypeError('fetch failed', {
                cause: Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:443`), { code: 'ECONNREFUSED' }),
              });
            }
          }
          url.protocol = 'http:';
          url.port = String(fixture.port);
        }
        return loopback.fetch(url, init);
      }) as typeof fetch,
    };
    h = await createPipelineApp({
      env: { CRAWL_MAX_ATTEMPTS: '1', AUTO_APPROVE: 'false' },
      overrides: { crawl: transport },
    });
  });
  afterAll(async () => h.close());

  it('falls back to http when https gives no page, and says so on the record and in the history', async () => {
    const member = await h.member('member');
    const url = `http://plain-${unique()}.default.localhost/fine`;
    const id = await h.submit(member.key, { name: `Plain ${unique()}`, url });
    await h.settle();
    const record = await (await h.request(`/api/v1/sites/${id}`, { key: member.key })).json();
    expect(record).toMatchObject({ status: 'pending_review', url, crawled_url: url });
    expect(httpsAsked).toContain(url.replace('http://', 'https://'));
    expect(record.history.at(-1)).toMatchObject({
      status: 'pending_review',
      reason: 'crawled over http: its https address did not answer with a page',
    });
  });

  it('uses https when it answers', async () => {
    const member = await h.member('member');
    const url = `http://tls.default.localhost/fine?u=${unique()}`;
    const id = await h.submit(member.key, { name: `Secure ${unique()}`, url });
    await h.settle();
    const record = await (await h.request(`/api/v1/sites/${id}`, { key: member.key })).json();
    expect(record).toMatchObject({ status: 'pending_review', url, crawled_url: url.replace('http://', 'https://') });
    expect(record.history.at(-1).reason).toBeUndefined();
  });
});
