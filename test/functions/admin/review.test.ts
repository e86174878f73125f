// The editor's REST decision and the /admin page (session cookie, CSRF, queue with crawled metadata).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp({ env: { AUTO_APPROVE: 'false' } });
  accountId = (await t.member('member')).accountId;
});
afterAll(() => t.close());

/** A site waiting for review, as the crawl step leaves it. */
async function pendingSite(name: string, status = 'pending_review') {
  const id = crypto.randomUUID();
  const url = `https://${id.slice(0, 8)}.example/`;
  const metadata = {
    title: `${name} <b>title</b>`,
    description: 'Writes things',
    image: null,
    icon: null,
    canonical: null,
    finalUrl: url,
    finalCanonical: url,
    language: 'en',
  };
  await queryRows(
    t.deps.db,
    sql`INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, metadata, review_checks)
        VALUES (${id}::uuid, ${accountId}::uuid, ${name}, ${url}, ${url}, ${`${name.toLowerCase()} ${id}`}, ${status}, 'membership', 'basic',
          ${JSON.stringify(metadata)}::jsonb, ${JSON.stringify({ passed: true, checks: [{ name: 'answered_html', passed: true, detail: 'ok' }] })}::jsonb)`,
  );
  return id;
}
const review = (id: string, json: unknown, key = ADMIN_TOKEN) =>
  t.request(`/api/v1/admin/sites/${id}/review`, { method: 'POST', key, json });

describe('POST /api/v1/admin/sites/{site_id}/review', () => {
  it('needs the operator token', async () => {
    const id = await pendingSite('Needs Token');
    expect((await review(id, { decision: 'approve' }, 'wrong-token-000000000000')).status).toBe(401);
    expect(
      (await t.request(`/api/v1/admin/sites/${id}/review`, { method: 'POST', json: { decision: 'approve' } })).status,
    ).toBe(401);
  });

  it('validates the body and answers 404 for unknown ids', async () => {
    const id = await pendingSite('Validate Me');
    const bad = await review(id, { decision: 'maybe' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: 'invalid_request', message: expect.stringContaining('approve or reject') },
    });
    expect((await review(crypto.randomUUID(), { decision: 'approve' })).status).toBe(404);
    expect((await review('not-a-uuid', { decision: 'approve' })).status).toBe(404);
  });

  it('answers 409 conflict for decisions that do not apply to the state', async () => {
    for (const status of ['queued', 'crawling', 'crawl_failed']) {
      const id = await pendingSite(`State ${status}`, status);
      for (const decision of ['approve', 'reject']) {
        const res = await review(id, { decision });
        expect(res.status).toBe(409);
        expect(await res.json()).toEqual({
          error: { code: 'conflict', message: expect.stringContaining(`status ${status}`) },
        });
      }
    }
    const live = await pendingSite('Already Live Tool');
    expect((await review(live, { decision: 'approve' })).status).toBe(200);
    const again = await review(live, { decision: 'approve' });
    expect(await again.json()).toEqual({ error: { code: 'conflict', message: 'The site is already live.' } });
  });

  it('shows operators the pipeline data and the history', async () => {
    const id = await pendingSite('History Tool');
    await review(id, { decision: 'reject', reason: 'dup' });
    const res = await t.request(`/api/v1/admin/sites/${id}`, { key: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { site: unknown; pipeline: unknown; history: Array<{ to_status: string }> };
    expect(body.site).toMatchObject({ site_id: id, status: 'rejected' });
    expect(body.pipeline).toMatchObject({ review_reason: 'dup', crawl_attempts: 0 });
    expect(body.history.map((h: { to_status: string }) => h.to_status)).toEqual(['pending_review', 'rejected']);
  });
});

/** Follows the editor flow with a cookie kept by hand (app.request has no cookie jar). */
async function signIn(): Promise<string> {
  const res = await t.request('/admin/login', {
    method: 'POST',
    body: new URLSearchParams({ token: ADMIN_TOKEN }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(
    /^tooldir_editor=[0-9A-Za-z]{43}; Max-Age=43200; Path=\/admin; HttpOnly; Secure; SameSite=Strict$/,
  );
  return cookie.split(';')[0]!;
}
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const formPost = (path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request(path, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

describe('/admin editor page', () => {
  it('shows the login form without a session and refuses a wrong token', async () => {
    const res = await t.request('/admin');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('name="token"');
    const wrong = await t.request('/admin/login', {
      method: 'POST',
      body: new URLSearchParams({ token: 'nope' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('drops Secure only for plain http on loopback (local npm start)', async () => {
    const res = await t.app.request('http://127.0.0.1:8787/admin/login', {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(
      /^tooldir_editor=[0-9A-Za-z]{43}; Max-Age=43200; Path=\/admin; HttpOnly; SameSite=Strict$/,
    );
  });

  it('stores only the hash of the session token', async () => {
    const cookie = await signIn();
    const token = cookie.split('=')[1]!;
    const rows = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM web_sessions WHERE token_hash = ${token} OR csrf_token = ${token}`,
    );
    expect(rows[0]!.n).toBe(0);
    expect(
      (
        await queryRows<{ n: number }>(
          t.deps.db,
          sql`SELECT count(*)::int AS n FROM web_sessions WHERE kind = 'editor'`,
        )
      )[0]!.n,
    ).toBeGreaterThan(0);
  });

  it('lists the queue with crawled metadata (escaped) and publishes on approve with a valid CSRF token only', async () => {
    const id = await pendingSite('Editor Queue Tool');
    const cookie = await signIn();
    const page = await (await t.request('/admin', { headers: { cookie } })).text();
    expect(page).toContain('Editor Queue Tool &lt;b&gt;title&lt;/b&gt;');
    expect(page).toContain(`action="/admin/sites/${id}/review"`);
    const csrf = csrfOf(page);
    expect(csrf).toMatch(/^[0-9A-Za-z]{32}$/);

    const forged = await formPost(`/admin/sites/${id}/review`, cookie, { decision: 'approve', _csrf: 'x'.repeat(32) });
    expect(forged.status).toBe(403);
    const noCookie = await formPost(`/admin/sites/${id}/review`, '', { decision: 'approve', _csrf: csrf });
    expect(noCookie.status).toBe(403);
    const crossSite = await formPost(
      `/admin/sites/${id}/review`,
      cookie,
      { decision: 'approve', _csrf: csrf },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    // The same-origin check every form shares (functions/middleware/csrf.ts): a browser's Sec-Fetch-Site counts too.
    const saysCrossSite = await formPost(
      `/admin/sites/${id}/review`,
      cookie,
      { decision: 'approve', _csrf: csrf },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(saysCrossSite.status).toBe(403);
    const sibling = await formPost(
      `/admin/sites/${id}/review`,
      cookie,
      { decision: 'approve', _csrf: csrf },
      { origin: 'https://sub.tooldir.test', 'sec-fetch-site': 'same-site' },
    );
    expect(sibling.status).toBe(403);
    const [still] = await queryRows<{ status: string }>(
      t.deps.db,
      sql`SELECT status FROM sites WHERE id = ${id}::uuid`,
    );
    expect(still!.status).toBe('pending_review');

    const ok = await formPost(`/admin/sites/${id}/review`, cookie, { decision: 'approve', _csrf: csrf });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/admin?notice=published');
    expect(await (await t.request('/admin?notice=published', { headers: { cookie } })).text()).toContain('Published.');
    const twice = await formPost(`/admin/sites/${id}/review`, cookie, { decision: 'approve', _csrf: csrf });
    expect(twice.headers.get('location')).toBe('/admin?notice=conflict');
    const reflected = await (
      await t.request(`/admin?notice=${encodeURIComponent('<b>phish</b>')}`, { headers: { cookie } })
    ).text();
    expect(reflected).not.toContain('phish');
    const [after] = await queryRows<{ status: string }>(
      t.deps.db,
      sql`SELECT status FROM sites WHERE id = ${id}::uuid`,
    );
    expect(after!.status).toBe('live');
  });

  it('signs out (the cookie stops working)', async () => {
    const cookie = await signIn();
    const csrf = csrfOf(await (await t.request('/admin', { headers: { cookie } })).text());
    const out = await formPost('/admin/logout', cookie, { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(await (await t.request('/admin', { headers: { cookie } })).text()).toContain('name="token"');
  });
});
