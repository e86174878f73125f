import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueName, uniqueUrl } from '../../../helpers/test-app';
import {
  expiredSession,
  recordingPayments,
  recordingQueue,
  sendEvent,
  submitUnpaid,
} from '../../../helpers/stripe/payments-fixture';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { moveSite } from '../../../helpers/submission-states';
import { csrfOf, PageClient, signedInMember, submitQueued } from './account-client';

// The buttons of /account/submissions/{site_id}: a fresh checkout link, Retry, Suggest an edit. Each runs the verb
// of its API call; each is refused without the session's CSRF token, and a refusal changes nothing.

const payments = recordingPayments();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { payments, queue: recordingQueue() } });
});
afterAll(() => t.close());

const page = (client: PageClient, siteId: string) => client.page(`/account/submissions/${siteId}`);
const post = (client: PageClient, path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  client.request(path, { form, headers: { origin: 'http://tooldir.test', ...headers } });
const detail = async (key: string, siteId: string) => (await t.request(`/api/v1/sites/${siteId}`, { key })).json();
const sessionsOf = async (siteId: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.deps.db,
        sql`SELECT count(*)::int AS n FROM checkout_sessions WHERE site_id = ${siteId}::uuid`,
      )
    )[0]?.n,
  );
const keyOf = (html: string) => /name="idempotency_key" value="([^"]+)"/.exec(html)![1]!;

async function expiredRecord(client: PageClient, m: { key: string }, input: { plan?: string } = {}) {
  const email = `contact-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const name = uniqueName('Expired');
  const res = await t.request('/api/v1/submit-site', {
    method: 'POST',
    key: m.key,
    json: { name, url: uniqueUrl(), email, plan: input.plan ?? 'featured' },
  });
  expect(res.status).toBe(402);
  const { site_id } = (await res.json()) as { site_id: string };
  const sessionId = (
    await queryRows<{ s: string }>(
      t.deps.db,
      sql`SELECT checkout_session_id AS s FROM pending_submissions WHERE id = ${site_id}`,
    )
  )[0]!.s;
  expect((await sendEvent(t, 'checkout.session.expired', expiredSession({ siteId: site_id, sessionId }))).status).toBe(
    200,
  );
  const { html } = await page(client, site_id);
  return { siteId: site_id, name, email, sessionId, html };
}

describe('a fresh checkout link for an expired one', () => {
  it('re-submits the same name, plan and e-mail through the submit verb and sends the person to the new link', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const r = await expiredRecord(client, m);
    const before = payments.calls.length;
    const res = await post(client, `/account/submissions/${r.siteId}/checkout`, {
      _csrf: csrfOf(r.html),
      idempotency_key: keyOf(r.html),
    });
    expect(res.status).toBe(303);
    const made = payments.calls.slice(before).filter((c) => c.method === 'createCheckout');
    expect(made).toHaveLength(1);
    expect(made[0]!.args[0]).toMatchObject({ siteId: r.siteId, name: r.name, plan: 'featured', email: r.email });
    const fresh = (await detail(m.key, r.siteId)) as {
      status: string;
      checkout_url: string;
      expires_at: string;
      reason: string;
    };
    expect(fresh).toMatchObject({ status: 'pending_payment', reason: 'payment_pending' });
    expect(res.headers.get('location')).toBe(fresh.checkout_url);
    expect(new Date(fresh.expires_at).getTime()).toBeGreaterThan(Date.now());
    // The page now offers Pay now with the new link.
    const { html } = await page(client, r.siteId);
    expect(html).toContain(`id="pay-now" href="${fresh.checkout_url}">Pay now</a>`);
    expect(html).not.toContain('id="fresh-checkout"');
  });

  it('a double click (the same form twice, one after the other or at once) makes one checkout session', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const r = await expiredRecord(client, m);
    expect(await sessionsOf(r.siteId)).toBe(1);
    const form = { _csrf: csrfOf(r.html), idempotency_key: keyOf(r.html) };
    const first = await post(client, `/account/submissions/${r.siteId}/checkout`, form);
    const second = await post(client, `/account/submissions/${r.siteId}/checkout`, form);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await sessionsOf(r.siteId)).toBe(2);

    // At once: the second waits for the first's answer instead of making its own session.
    const again = await expiredRecord(client, m);
    const atOnce = { _csrf: csrfOf(again.html), idempotency_key: keyOf(again.html) };
    const both = await Promise.all(
      [1, 2, 3].map(() => post(client, `/account/submissions/${again.siteId}/checkout`, atOnce)),
    );
    expect(both.map((b) => b.status)).toEqual([303, 303, 303]);
    expect(new Set(both.map((b) => b.headers.get('location'))).size).toBe(1);
    expect(await sessionsOf(again.siteId)).toBe(2);
    expect(both[0]!.headers.get('location')).toBe(
      ((await detail(m.key, again.siteId)) as { checkout_url: string }).checkout_url,
    );
  });

  it('a member with quota left is queued by the same verb, keeping the site_id', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const r = await expiredRecord(client, m, { plan: 'basic' });
    await t.request(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      key: ADMIN_TOKEN,
      json: { tier: 'member' },
    });
    const res = await post(client, `/account/submissions/${r.siteId}/checkout`, {
      _csrf: csrfOf(r.html),
      idempotency_key: keyOf(r.html),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/submissions/${r.siteId}`);
    expect(((await detail(m.key, r.siteId)) as { status: string }).status).toBe('queued');
  });

  it("when someone else's submission of the URL was paid first, the page says so and nothing is made", async () => {
    const { m, client } = await signedInMember(t, 'none');
    const url = uniqueUrl();
    const p = await submitUnpaid(t, m.key, { url });
    expect((await sendEvent(t, 'checkout.session.expired', expiredSession(p))).status).toBe(200);
    const { html } = await page(client, p.siteId);
    const other = await t.member('member');
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: other.key,
          json: { name: uniqueName('Winner'), url },
        })
      ).status,
    ).toBe(201);
    const before = await sessionsOf(p.siteId);
    const res = await post(client, `/account/submissions/${p.siteId}/checkout`, {
      _csrf: csrfOf(html),
      idempotency_key: keyOf(html),
    });
    expect(res.status).toBe(409);
    const refused = await res.text();
    expect(refused).toContain(
      '<div class="error" role="alert" id="error-summary"><p>Another submission of this URL or name was paid for first, so this one can no longer be paid.</p></div>',
    );
    expect(await sessionsOf(p.siteId)).toBe(before);
  });

  it('an old page whose record changed meanwhile (a re-submit through the API) is told to reload, and makes nothing', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const r = await expiredRecord(client, m);
    const form = { _csrf: csrfOf(r.html), idempotency_key: keyOf(r.html) };
    expect((await post(client, `/account/submissions/${r.siteId}/checkout`, form)).status).toBe(303);
    const { url } = (await detail(m.key, r.siteId)) as { url: string };
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: m.key,
          json: { name: uniqueName('Renamed'), url },
        })
      ).status,
    ).toBe(402);
    const sessions = await sessionsOf(r.siteId);
    const stale = await post(client, `/account/submissions/${r.siteId}/checkout`, form);
    expect(stale.status).toBe(422);
    expect(await stale.text()).toContain(
      '<p>This submission changed since the page was shown. Reload the page and try again.</p>',
    );
    expect(await sessionsOf(r.siteId)).toBe(sessions);
  });

  it('a form without a usable idempotency key is refused and makes nothing', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const r = await expiredRecord(client, m);
    for (const key of [undefined, '', 'ключ', 'x'.repeat(256)]) {
      const res = await post(client, `/account/submissions/${r.siteId}/checkout`, {
        _csrf: csrfOf(r.html),
        ...(key !== undefined && { idempotency_key: key }),
      });
      expect(res.status, String(key)).toBe(400);
      expect(await res.text()).toContain('Reload the page and try again.');
    }
    expect(await sessionsOf(r.siteId)).toBe(1);
  });

  it('a paid submission has nothing to pay: back to its page', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    const { html } = await page(client, siteId);
    const res = await post(client, `/account/submissions/${siteId}/checkout`, {
      _csrf: csrfOf(html),
      idempotency_key: crypto.randomUUID(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/submissions/${siteId}`);
    expect(await sessionsOf(siteId)).toBe(0);
  });
});

describe('Retry', () => {
  it('puts a crawl_failed submission back in line; after 3 retries a day it says when retries start again', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    for (let round = 1; round <= 3; round++) {
      await moveSite(t.deps, siteId, 'crawl_failed');
      const { html } = await page(client, siteId);
      const res = await post(client, `/account/submissions/${siteId}/retry`, { _csrf: csrfOf(html) });
      expect(res.status, `retry ${round}`).toBe(303);
      expect(res.headers.get('location')).toBe(`/account/submissions/${siteId}`);
      const after = (await page(client, siteId)).html;
      expect(after).toContain('data-status="queued">Queued for crawling<');
    }
    await moveSite(t.deps, siteId, 'crawl_failed');
    const { html } = await page(client, siteId);
    const refused = await post(client, `/account/submissions/${siteId}/retry`, { _csrf: csrfOf(html) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const text = await refused.text();
    expect(text).toContain(
      '<div class="error" role="alert" id="error-summary"><p>This submission was retried 3 times today; retries start again at 00:00 UTC.</p></div>',
    );
    // The refusal is the submission's own page, still crawl_failed, still offering Retry for tomorrow.
    expect(text).toContain('data-status="crawl_failed">Crawl failed<');
    expect(text).toContain('id="retry">Retry</button>');
    expect(((await detail(m.key, siteId)) as { status: string }).status).toBe('crawl_failed');
  });

  it('a submission that is not crawl_failed (a second click) is told its state', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    await moveSite(t.deps, siteId, 'crawl_failed');
    const { html } = await page(client, siteId);
    expect((await post(client, `/account/submissions/${siteId}/retry`, { _csrf: csrfOf(html) })).status).toBe(303);
    const second = await post(client, `/account/submissions/${siteId}/retry`, { _csrf: csrfOf(html) });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain(
      'Only a submission whose crawl failed (crawl_failed) can be retried; this one is queued.',
    );
  });
});

describe('Suggest an edit', () => {
  it('files the edit through the API verb, shows it waiting, then the editor’s decision with its reason', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name: uniqueName('Editable') });
    const { html } = await page(client, tool.id);
    const newName = uniqueName('Renamed <Tool>');
    const res = await post(client, `/account/submissions/${tool.id}/edit`, {
      _csrf: csrfOf(html),
      name: newName,
      description: '  Better   words. ',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/submissions/${tool.id}#edit`);
    const record = (await detail(m.key, tool.id)) as {
      pending_edit: { edit_id: string; name: string; description: string };
    };
    expect(record.pending_edit).toMatchObject({ name: newName, description: 'Better words.' });
    let view = (await page(client, tool.id)).html;
    expect(view).toMatch(
      /<p class="notice" id="pending-edit">Your edit is waiting for review since [^<]*: name &quot;Renamed &lt;Tool&gt; [0-9a-f]{8}&quot;, a new description\.<\/p>/,
    );

    const decided = await t.request(`/api/v1/admin/edits/${record.pending_edit.edit_id}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'reject', reason: 'Keep the <b>brand</b> name' },
    });
    expect(decided.status).toBe(200);
    view = (await page(client, tool.id)).html;
    expect(view).not.toContain('id="pending-edit"');
    expect(view).toMatch(/<p id="last-edit">Last edit rejected [^<]*: Keep the &lt;b&gt;brand&lt;\/b&gt; name\.<\/p>/);
  });

  it('errors come back next to the field, with what was typed kept, and file nothing', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name: uniqueName('Guarded') });
    const taken = await seedOwnedTool(t.deps.db, (await t.member('member')).accountId, { name: uniqueName('Taken') });
    const takenName = (
      await queryRows<{ name: string }>(t.deps.db, sql`SELECT name FROM sites WHERE id = ${taken.id}`)
    )[0]!.name;
    const { html } = await page(client, tool.id);
    const edit = (form: Record<string, string>) =>
      post(client, `/account/submissions/${tool.id}/edit`, { _csrf: csrfOf(html), ...form });

    const empty = await edit({ name: ' ', description: '' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain(
      'role="alert" id="error-summary"><p>Nothing to file: give a new name, a new description, or both.</p>',
    );

    const short = await edit({ name: 'x', description: '"><script>alert(1)</script>' });
    expect(short.status).toBe(400);
    const shortPage = await short.text();
    expect(shortPage).toContain('The edit was not filed: see the fields marked below.');
    expect(shortPage).toMatch(
      /<input id="edit-name" type="text" name="name" value="x" aria-invalid="true" aria-describedby="edit-name-hint edit-name-error">/,
    );
    expect(shortPage).toMatch(/<span class="field-error" id="edit-name-error">name must be [^<]+<\/span>/);
    expect(shortPage).toContain('>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
    expect(shortPage).not.toContain('<script>alert(1)');

    const long = await edit({ description: 'd'.repeat(501) });
    expect(long.status).toBe(400);
    expect(await long.text()).toMatch(
      /<textarea id="edit-description" name="description" rows="4" aria-invalid="true" aria-describedby="edit-description-hint edit-description-error">d{501}<\/textarea>/,
    );

    const clash = await edit({ name: takenName });
    expect(clash.status).toBe(409);
    const clashPage = await clash.text();
    expect(clashPage).toContain(
      '<span class="field-error" id="edit-name-error">Another tool already has this name.</span>',
    );
    expect(clashPage).toContain(`value="${takenName}" aria-invalid="true"`);

    expect(((await detail(m.key, tool.id)) as { pending_edit?: unknown }).pending_edit).toBeUndefined();
  });

  it('a submission not yet crawled cannot be edited: its page says why', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    const { html } = await page(client, siteId);
    expect(html).not.toContain('id="edit"');
    const res = await post(client, `/account/submissions/${siteId}/edit`, {
      _csrf: csrfOf(html),
      name: uniqueName('Sneaky'),
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('Only a tool in review or live can be edited; this submission is queued.');
  });
});

describe('who may press the buttons', () => {
  it('each POST without the CSRF token, with a wrong one, or from another site is refused (403) and changes nothing', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const failed = await submitQueued(t, m.key);
    await moveSite(t.deps, failed, 'crawl_failed');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name: uniqueName('Protected') });
    const unpaid = await submitUnpaid(t, m.key, { plan: 'sponsored' });
    expect((await sendEvent(t, 'checkout.session.expired', expiredSession(unpaid))).status).toBe(200);
    const { html } = await page(client, failed);
    const token = csrfOf(html);
    const cases: Array<{ form: Record<string, string>; headers: Record<string, string> }> = [
      { form: {}, headers: {} },
      { form: { _csrf: 'A'.repeat(32) }, headers: {} },
      { form: { _csrf: token }, headers: { origin: 'https://evil.example' } },
      { form: { _csrf: token }, headers: { 'sec-fetch-site': 'cross-site' } },
    ];
    const actions: Array<{ path: string; extra: Record<string, string> }> = [
      { path: `/account/submissions/${unpaid.siteId}/checkout`, extra: { idempotency_key: crypto.randomUUID() } },
      { path: `/account/submissions/${failed}/retry`, extra: {} },
      { path: `/account/submissions/${tool.id}/edit`, extra: { name: uniqueName('Forged') } },
    ];
    for (const action of actions) {
      for (const c of cases) {
        const res = await post(client, action.path, { ...c.form, ...action.extra }, c.headers);
        expect(res.status, `${action.path} ${JSON.stringify(c)}`).toBe(403);
        expect(await res.text()).toContain('This form has expired or did not come from this site.');
      }
    }
    expect(await sessionsOf(unpaid.siteId)).toBe(1);
    expect(((await detail(m.key, failed)) as { status: string }).status).toBe('crawl_failed');
    expect(((await detail(m.key, tool.id)) as { pending_edit?: unknown }).pending_edit).toBeUndefined();
  });

  it("another account's submission, an unknown id and a malformed id are a 404 for every button, and nothing changes", async () => {
    const owner = await t.member('member');
    const failed = await submitQueued(t, owner.key);
    await moveSite(t.deps, failed, 'crawl_failed');
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name: uniqueName('Foreign') });
    const unpaid = await submitUnpaid(t, (await t.member('none')).key);
    expect((await sendEvent(t, 'checkout.session.expired', expiredSession(unpaid))).status).toBe(200);

    const ids = [failed, tool.id, unpaid.siteId, crypto.randomUUID(), 'not-a-uuid', "'; DROP TABLE sites; --"];
    for (const id of ids) {
      // One account per id: the buttons share the account's submit bucket (10 a minute), as the API calls do.
      const { client } = await signedInMember(t, 'member');
      const token = csrfOf((await client.page('/account')).html);
      for (const [verb, extra] of [
        ['checkout', { idempotency_key: crypto.randomUUID() }],
        ['retry', {}],
        ['edit', { name: uniqueName('Hijack') }],
        ['edit', { name: 'x' }],
      ] as const) {
        const res = await post(client, `/account/submissions/${encodeURIComponent(id)}/${verb}`, {
          _csrf: token,
          ...extra,
        });
        expect(res.status, `${verb} ${id}`).toBe(404);
        expect(await res.text()).toContain('No submission with this id belongs to you.');
      }
    }
    expect(await sessionsOf(unpaid.siteId)).toBe(1);
    expect(((await detail(owner.key, failed)) as { status: string }).status).toBe('crawl_failed');
    expect(((await detail(owner.key, tool.id)) as { pending_edit?: unknown }).pending_edit).toBeUndefined();
  });

  it('signed out, a POST goes to sign-in and changes nothing', async () => {
    const owner = await t.member('member');
    const failed = await submitQueued(t, owner.key);
    await moveSite(t.deps, failed, 'crawl_failed');
    const res = await post(new PageClient(t), `/account/submissions/${failed}/retry`, { _csrf: 'A'.repeat(32) });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/sign-in');
    expect(((await detail(owner.key, failed)) as { status: string }).status).toBe('crawl_failed');
  });
});
