// The operator decides a claim dispute (docs/ownership.md "Disputes"): on /admin with the editor session and CSRF token,
// and over the operator API. Awarding moves the listing as a claim does; keeping closes the dispute; a second decision,
// a stale or unknown id, a forged or missing CSRF token change nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { txtTable } from '../../helpers/domain-fixtures';
import { disputeRow, mailSubjects, openDispute, ownerOf, type TxtRecords } from '../../helpers/disputes';

const records: TxtRecords = {};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records) } });
});
afterAll(() => t.close());

async function signIn(): Promise<string> {
  const res = await t.request('/admin/login', {
    method: 'POST',
    body: new URLSearchParams({ token: ADMIN_TOKEN }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const formPost = (path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request(path, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
const adminPage = async (cookie: string, query = '') =>
  (await t.request(`/admin${query}`, { headers: { cookie } })).text();
const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
const decideApi = (claimId: string, body: unknown, headers: Record<string, string> = operator) =>
  t.request(`/api/v1/admin/disputes/${claimId}/decision`, { method: 'POST', json: body, headers });
const webhookFor = (accountId: string) =>
  queryRows(
    t.deps.db,
    sql`INSERT INTO webhooks (id, account_id, slot, url, events, secret)
        VALUES (${crypto.randomUUID()}::uuid, ${accountId}::uuid, 1, 'https://hooks.example.com/in', ARRAY['site.claimed'], 'whsec_test')`,
  );

describe('/admin claim disputes', () => {
  it('gives the listing to the claimant: moved as a claim moves it, both mailed, site.claimed to both', async () => {
    const d = await openDispute(t, records);
    await webhookFor(d.owner.accountId);
    await webhookFor(d.claimant.accountId);
    const cookie = await signIn();
    const page = await adminPage(cookie);
    const action = `/admin/disputes/${d.claimId}/decision`;
    expect(page).toContain(`action="${action}"`);
    expect(page).toContain('Give the listing to the claimant');
    expect(page).toContain('Keep it with the current owner');

    const res = await formPost(action, cookie, { decision: 'award', _csrf: csrfOf(page) });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin?notice=dispute_awarded');
    expect(await adminPage(cookie, '?notice=dispute_awarded')).toContain('the listing is now in the claimant');
    expect(await ownerOf(t, d.siteId)).toBe(d.claimant.accountId);
    expect(await disputeRow(t, d.claimId)).toEqual({ outcome: 'awarded', settled: true });
    expect(await adminPage(cookie)).not.toContain(`action="${action}"`);

    const record = await (await t.request(`/api/v1/sites/${d.siteId}`, { key: d.claimant.key })).json();
    expect(record.history.at(-1)).toMatchObject({ status: 'live', event: 'claimed' });
    expect((await t.request(`/api/v1/sites/${d.siteId}`, { key: d.owner.key })).status).toBe(404);
    expect(await mailSubjects(t, d.owner.email)).toContain(
      `Your listing "${d.name}" was given to another owner of ${d.domain}`,
    );
    expect(await mailSubjects(t, d.claimant.email)).toContain(`The listing "${d.name}" is now in your account`);
    const events = await queryRows<{ event_type: string; claimed: boolean }>(
      t.deps.db,
      sql`SELECT d.event_type, (d.data->>'claimed')::boolean AS claimed FROM webhook_deliveries d WHERE d.site_id = ${d.siteId}::uuid ORDER BY 2`,
    );
    expect(events).toEqual([
      { event_type: 'site.claimed', claimed: false },
      { event_type: 'site.claimed', claimed: true },
    ]);
  });

  it('keeps the listing with its owner: the dispute closes, the claimant is mailed, nothing moves', async () => {
    const d = await openDispute(t, records);
    const cookie = await signIn();
    const res = await formPost(`/admin/disputes/${d.claimId}/decision`, cookie, {
      decision: 'keep',
      _csrf: csrfOf(await adminPage(cookie)),
    });
    expect(res.headers.get('location')).toBe('/admin?notice=dispute_kept');
    expect(await ownerOf(t, d.siteId)).toBe(d.owner.accountId);
    expect(await disputeRow(t, d.claimId)).toEqual({ outcome: 'kept', settled: true });
    expect(await mailSubjects(t, d.claimant.email)).toContain(`Your claim of "${d.name}" was not granted`);
    expect(await mailSubjects(t, d.owner.email)).toEqual([]);
    // The claimant may claim again later: a new dispute is recorded.
    const again = await t.request('/api/v1/claims', {
      method: 'POST',
      key: d.claimant.key,
      json: { url: `https://${d.domain}/` },
    });
    expect((await again.json()).error.code).toBe('claim_disputed');
  });

  it('decided twice (a double click, two decisions at once): changes once, the other answers the notice', async () => {
    const d = await openDispute(t, records);
    const cookie = await signIn();
    const csrf = csrfOf(await adminPage(cookie));
    const path = `/admin/disputes/${d.claimId}/decision`;
    const answers = await Promise.all([
      formPost(path, cookie, { decision: 'award', _csrf: csrf }),
      formPost(path, cookie, { decision: 'award', _csrf: csrf }),
      formPost(path, cookie, { decision: 'keep', _csrf: csrf }),
    ]);
    const notices = answers.map((r) => r.headers.get('location')).sort();
    expect(answers.every((r) => r.status === 303)).toBe(true);
    expect(notices.filter((n) => n === '/admin?notice=dispute_stale')).toHaveLength(2);
    const claimed = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM site_claims WHERE site_id = ${d.siteId}::uuid AND outcome = 'claimed'`,
    );
    const row = await disputeRow(t, d.claimId);
    expect(claimed[0]!.n).toBe(row?.outcome === 'awarded' ? 1 : 0);
    expect(await ownerOf(t, d.siteId)).toBe(row?.outcome === 'awarded' ? d.claimant.accountId : d.owner.accountId);
    const later = await formPost(path, cookie, { decision: 'keep', _csrf: csrf });
    expect(later.headers.get('location')).toBe('/admin?notice=dispute_stale');
  });

  it('a second claimant of a listing given to the first: award is stale (owner changed), keep closes it', async () => {
    const first = await openDispute(t, records);
    const second = await openDispute(t, records, first);
    expect((await decideApi(first.claimId, { decision: 'award' })).status).toBe(200);
    const stale = await decideApi(second.claimId, { decision: 'award' });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('changed owner'),
    });
    expect(await ownerOf(t, first.siteId)).toBe(first.claimant.accountId);
    expect(await disputeRow(t, second.claimId)).toEqual({ outcome: 'disputed', settled: false });
    const closed = await decideApi(second.claimId, { decision: 'keep' });
    expect(closed.status).toBe(200);
    expect(await ownerOf(t, first.siteId)).toBe(first.claimant.accountId);
  });

  it('forged, missing or cross-origin CSRF: 403 and nothing changes; unknown ids and decisions answer the notice', async () => {
    const d = await openDispute(t, records);
    const cookie = await signIn();
    const csrf = csrfOf(await adminPage(cookie));
    const path = `/admin/disputes/${d.claimId}/decision`;
    expect((await formPost(path, cookie, { decision: 'award', _csrf: 'x'.repeat(32) })).status).toBe(403);
    expect((await formPost(path, cookie, { decision: 'award' })).status).toBe(403);
    expect((await formPost(path, '', { decision: 'award', _csrf: csrf })).status).toBe(403);
    expect(
      (await formPost(path, cookie, { decision: 'award', _csrf: csrf }, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect(await disputeRow(t, d.claimId)).toEqual({ outcome: 'disputed', settled: false });
    expect(await ownerOf(t, d.siteId)).toBe(d.owner.accountId);

    for (const [id, decision] of [
      ['not-a-uuid', 'award'],
      [crypto.randomUUID(), 'keep'],
      [d.claimId, 'publish'],
    ] as const) {
      const res = await formPost(`/admin/disputes/${id}/decision`, cookie, { decision, _csrf: csrf });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/admin?notice=dispute_unknown');
    }
    expect(await adminPage(cookie, '?notice=dispute_unknown')).toContain('Unknown dispute or decision.');
    expect(await disputeRow(t, d.claimId)).toEqual({ outcome: 'disputed', settled: false });
  });
});

describe('operator API: /api/v1/admin/disputes', () => {
  it('lists open disputes and decides one once; a claim id of a plain claim is no dispute', async () => {
    const d = await openDispute(t, records);
    const list = await t.request('/api/v1/admin/disputes', { headers: operator });
    expect(list.status).toBe(200);
    const { disputes } = await list.json();
    expect(disputes).toContainEqual(
      expect.objectContaining({
        claim_id: d.claimId,
        site_id: d.siteId,
        domain: d.domain,
        owner_email: d.owner.email,
        claimant_email: d.claimant.email,
      }),
    );
    const res = await decideApi(d.claimId, { decision: 'award' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      claim_id: d.claimId,
      site_id: d.siteId,
      domain: d.domain,
      outcome: 'awarded',
      owner_account_id: d.claimant.accountId,
      claimant_account_id: d.claimant.accountId,
      settled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const again = await decideApi(d.claimId, { decision: 'keep' });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('conflict');
    const after = (await (await t.request('/api/v1/admin/disputes', { headers: operator })).json()).disputes;
    expect(after.map((x: { claim_id: string }) => x.claim_id)).not.toContain(d.claimId);

    const [plain] = await queryRows<{ id: string }>(
      t.deps.db,
      sql`SELECT id FROM site_claims WHERE site_id = ${d.siteId}::uuid AND outcome = 'claimed'`,
    );
    expect((await decideApi(plain!.id, { decision: 'award' })).status).toBe(404);
  });

  it('refuses bad input and callers without the operator token, changing nothing', async () => {
    const d = await openDispute(t, records);
    for (const body of [{}, { decision: 'give' }, { decision: 'AWARD' }, { decision: 7 }, []]) {
      const res = await decideApi(d.claimId, body);
      if (res.status !== 200) expect((await res.json()).error.code).toBe('invalid_request');
      expect(res.status).toBe(400);
    }
    expect((await decideApi('nope', { decision: 'award' })).status).toBe(404);
    expect((await decideApi(crypto.randomUUID(), { decision: 'award' })).status).toBe(404);
    expect((await decideApi(d.claimId, { decision: 'award' }, {})).status).toBe(401);
    expect((await decideApi(d.claimId, { decision: 'award' }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await t.request('/api/v1/admin/disputes')).status).toBe(401);
    expect(await disputeRow(t, d.claimId)).toEqual({ outcome: 'disputed', settled: false });
  });
});
