import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueName, uniqueUrl } from '../../helpers/test-app';
import {
  expiredSession,
  recordingPayments,
  recordingQueue,
  sendEvent,
  submitUnpaid,
} from '../../helpers/stripe/payments-fixture';
import { moveSite } from '../../helpers/submission-states';
import { PageClient, signedInMember, submitQueued } from './account-client';

// GET /account/submissions/{site_id} in every state a submission can be in, and who may see it (docs/account.md).

let t: TestApp;
beforeAll(async () => {
  // No pipeline runs: each test moves its submission to the state it shows (test/helpers/submission-states.ts).
  t = await createTestApp({ overrides: { payments: recordingPayments(), queue: recordingQueue() } });
});
afterAll(() => t.close());

const pageOf = (client: PageClient, siteId: string) => client.page(`/account/submissions/${siteId}`);
const statusOf = (html: string) => /id="status" data-status="([a-z_]+)">([^<]+)</.exec(html)?.slice(1);
const timelineOf = (html: string) =>
  [...html.matchAll(/<li data-status="([a-z_]+)"><time datetime="[^"]+">[^<]+<\/time> · ([^<]+)<\/li>/g)].map(
    (m) => `${m[1]}: ${m[2]}`,
  );

describe('a submission waiting for payment', () => {
  it('open: the reason, the price and Pay now (the checkout link); no fresh-link form', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const p = await submitUnpaid(t, m.key, { plan: 'featured' });
    const detail = (await (await t.request(`/api/v1/sites/${p.siteId}`, { key: m.key })).json()) as {
      checkout_url: string;
    };
    const { res, html } = await pageOf(client, p.siteId);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(`<h1>${p.name}</h1>`);
    expect(statusOf(html)).toEqual(['pending_payment', 'Waiting for payment']);
    expect(html).toContain('Your account has no active membership, so this submission must be paid.');
    expect(html).toContain('<dt>Plan</dt><dd>featured (19.90 USD)</dd>');
    expect(html).toContain(`<a class="button primary" id="pay-now" href="${detail.checkout_url}">Pay now</a>`);
    expect(html).not.toContain('id="fresh-checkout"');
    expect(timelineOf(html)).toEqual(['pending_payment: waiting for payment']);
    // Nothing of another state's sections.
    for (const absent of ['id="queue"', 'id="retry"', 'id="edit"', 'id="badge-snippet"', 'id="rejection-reason"'])
      expect(html).not.toContain(absent);
  });

  it('expired: says when, and offers a fresh link through a POST form with its own idempotency key', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const p = await submitUnpaid(t, m.key);
    expect((await sendEvent(t, 'checkout.session.expired', expiredSession(p))).status).toBe(200);
    const { res, html } = await pageOf(client, p.siteId);
    expect(res.status).toBe(200);
    expect(statusOf(html)).toEqual(['pending_payment', 'Waiting for payment']);
    expect(html).toMatch(/<p class="notice" id="expired">The checkout link expired at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(html).not.toContain('id="pay-now"');
    expect(html).toMatch(
      new RegExp(
        `<form method="post" action="/account/submissions/${p.siteId}/checkout"><input type="hidden" name="_csrf" value="[0-9A-Za-z]{32}"><input type="hidden" name="idempotency_key" value="[0-9a-f-]{36}">`,
      ),
    );
    // Each view of the page names a new attempt.
    const again = (await pageOf(client, p.siteId)).html;
    const keyOf = (h: string) => /name="idempotency_key" value="([^"]+)"/.exec(h)?.[1];
    expect(keyOf(again)).not.toBe(keyOf(html));
  });
});

describe('a submission on its way', () => {
  it('queued: its place in line and when it is expected to move on', async () => {
    const { m, client } = await signedInMember(t, 'member');
    // Two submissions that left the crawl stage give the stage a pace (docs/submission-progress.md).
    for (let i = 0; i < 2; i++) await moveSite(t.deps, await submitQueued(t, m.key), 'pending_review');
    const siteId = await submitQueued(t, m.key);
    const { res, html } = await pageOf(client, siteId);
    expect(res.status).toBe(200);
    expect(statusOf(html)).toEqual(['queued', 'Queued for crawling']);
    expect(html).toMatch(
      /<p id="queue">\d+(st|nd|rd|th) in line for crawling, expected around (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.<\/p>/,
    );
    expect(html).not.toContain('No estimate yet');
    expect(timelineOf(html)).toEqual(['queued: queued for crawling']);
    expect(html).not.toContain('id="pay-now"');
  });

  it('crawling: still in line for the crawl', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    await moveSite(t.deps, siteId, 'crawling');
    const { html } = await pageOf(client, siteId);
    expect(statusOf(html)).toEqual(['crawling', 'Being crawled']);
    expect(html).toMatch(/<p id="queue">\d+(st|nd|rd|th) in line for crawling/);
    expect(timelineOf(html)).toEqual(['queued: queued for crawling', 'crawling: being crawled']);
  });

  it('pending_review: in line for review', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    await moveSite(t.deps, siteId, 'pending_review');
    const { html } = await pageOf(client, siteId);
    expect(statusOf(html)).toEqual(['pending_review', 'Crawled, waiting for editorial review']);
    expect(html).toMatch(/<p id="queue">\d+(st|nd|rd|th) in line for review/);
    expect(timelineOf(html)).toEqual([
      'queued: queued for crawling',
      'crawling: being crawled',
      'pending_review: crawled, waiting for editorial review',
    ]);
  });

  it('crawl_failed: why in words, and Retry with its daily allowance', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    await moveSite(t.deps, siteId, 'crawl_failed');
    const { html } = await pageOf(client, siteId);
    expect(statusOf(html)).toEqual(['crawl_failed', 'Crawl failed']);
    expect(html).toContain('<strong id="crawl-error">the site answered HTTP 503</strong>');
    expect(html).toContain('You can retry up to 3 times a day (UTC).');
    expect(html).toMatch(
      new RegExp(
        `<form method="post" action="/account/submissions/${siteId}/retry"><input type="hidden" name="_csrf" value="[0-9A-Za-z]{32}"><button type="submit" class="primary" id="retry">Retry</button></form>`,
      ),
    );
    expect(timelineOf(html).at(-1)).toBe('crawl_failed: crawl failed: the site answered HTTP 503');
    expect(html).not.toContain('id="queue"');
  });
});

describe('a decided submission', () => {
  it('live: the public page, the badge to embed and the edit form', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key, uniqueName('Shiny'));
    await moveSite(t.deps, siteId, 'live');
    const { live_url } = (await (await t.request(`/api/v1/sites/${siteId}`, { key: m.key })).json()) as {
      live_url: string;
    };
    const slug = new URL(live_url).pathname.split('/').pop()!;
    const { res, html } = await pageOf(client, siteId);
    expect(statusOf(html)).toEqual(['live', 'Live']);
    expect(html).toContain(`<a id="live-link" href="${live_url}">${live_url}</a>`);
    expect(html).toContain(`<img src="/badge/${slug}.svg" alt="Listed on tooldir" height="28">`);
    expect(html).toContain(
      `&lt;a href=&quot;${live_url}&quot;&gt;&lt;img src=&quot;http://tooldir.test/badge/${slug}.svg&quot;`,
    );
    // The copy button's one script, allowed by its hash.
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'/);
    expect(html).toMatch(new RegExp(`<form method="post" action="/account/submissions/${siteId}/edit">`));
    expect(html).toContain('<label for="edit-name">New name</label>');
    expect(html).toContain('<label for="edit-description">New description</label>');
    expect(html).not.toContain('id="pending-edit"');
    expect(html).not.toContain('id="last-edit"');
    expect(timelineOf(html).at(-1)).toBe('live: live');
  });

  it("rejected: the editor's reason, escaped", async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    await moveSite(t.deps, siteId, 'pending_review');
    const decided = await t.request(`/api/v1/admin/sites/${siteId}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'reject', reason: 'Not an <b>AI</b> tool' },
    });
    expect(decided.status).toBe(200);
    const { html } = await pageOf(client, siteId);
    expect(statusOf(html)).toEqual(['rejected', 'Rejected by review']);
    expect(html).toContain(`The editor's reason: <span id="rejection-reason">Not an &lt;b&gt;AI&lt;/b&gt; tool</span>`);
    expect(timelineOf(html).at(-1)).toBe('rejected: rejected by review: Not an &lt;b&gt;AI&lt;/b&gt; tool');
  });

  it('rejected without a reason says so', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const siteId = await submitQueued(t, m.key);
    await moveSite(t.deps, siteId, 'rejected');
    const { html } = await pageOf(client, siteId);
    expect(html).toContain('<p id="rejection-reason">The editor gave no reason.</p>');
  });

  it('refunded: the payment could not be applied, and why', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const url = uniqueUrl();
    const p = await submitUnpaid(t, m.key, { url });
    const checkoutPath = new URL(
      ((await (await t.request(`/api/v1/sites/${p.siteId}`, { key: m.key })).json()) as { checkout_url: string })
        .checkout_url,
    ).pathname;
    const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(await (await t.request(checkoutPath)).text())![1]!;
    // Someone else's membership submission takes the URL before the payment arrives: the payment is refunded.
    const other = await t.member('member');
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: other.key,
          json: { name: uniqueName('Early'), url },
        })
      ).status,
    ).toBe(201);
    const paid = await t.request(`${checkoutPath}/pay`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(paid.status).toBe(303);
    const { res, html } = await pageOf(client, p.siteId);
    expect(res.status).toBe(200);
    expect(statusOf(html)).toEqual(['rejected', 'Rejected by review']);
    expect(html).toContain('<h2 id="rejected-title">Payment refunded</h2>');
    expect(html).toMatch(
      /Your payment could not be applied and was refunded: <span id="rejection-reason">[^<]*refunded[^<]*<\/span>/,
    );
    expect(html).not.toContain('id="fresh-checkout"');
    expect(timelineOf(html)).toEqual(['pending_payment: waiting for payment']);
  });
});

describe('whose page it is', () => {
  it("another account's submission, an unknown id and a malformed id are the account area's one 404", async () => {
    const owner = await t.member('member');
    const siteId = await submitQueued(t, owner.key);
    const unpaid = await submitUnpaid(t, (await t.member('none')).key);
    const { client } = await signedInMember(t, 'member');
    const ids = [
      siteId,
      unpaid.siteId,
      crypto.randomUUID(),
      'not-a-uuid',
      `${siteId}x`,
      "1'%20OR%20'1'='1",
      'x'.repeat(3000),
      '%00',
      '..%2f..%2fetc',
    ];
    const bodies = new Set<string>();
    for (const id of ids) {
      const { res, html } = await client.page(`/account/submissions/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.headers.get('content-type'), id).toContain('text/html');
      expect(html, id).toContain('No submission with this id belongs to you.');
      bodies.add(html.replace(/name="_csrf" value="[^"]+"/g, ''));
    }
    // The same page whatever the reason: nothing tells a foreign id from an unknown one.
    expect(bodies.size).toBe(1);
  });

  it('signed out, the page sends the person to sign in and back to it', async () => {
    const owner = await t.member('member');
    const siteId = await submitQueued(t, owner.key);
    const res = await new PageClient(t).request(`/account/submissions/${siteId}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `/account/sign-in?next=${encodeURIComponent(`/account/submissions/${siteId}`)}`,
    );
  });

  it('hostile names and URLs are escaped everywhere they appear', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const name = `<script>alert(1)</script> "q" & 'a' ${crypto.randomUUID().slice(0, 6)}`;
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name, url: `${uniqueUrl()}/?a="><img/src=x/onerror=alert(1)>` },
    });
    expect(res.status).toBe(201);
    const { site_id } = (await res.json()) as { site_id: string };
    const { html } = await pageOf(client, site_id);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img/src=x');
    // The URL is kept as the parser reads it, so its quote and brackets are percent-encoded before any escaping.
    expect(html).toContain('/?a=%22%3E%3Cimg/src=x/onerror=alert(1)%3E');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &amp; &#39;a&#39;');
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;');
    const overview = (await client.page('/account')).html;
    expect(overview).toContain(`<a href="/account/submissions/${site_id}">&lt;script&gt;alert(1)&lt;/script&gt;`);
    expect(overview).not.toContain('<script>alert(1)');
  });
});

describe('/account lists the submissions with links to their pages', () => {
  it('name → the page; status in words; Pay now or the public page; data-labels for the stacked table', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const live = await submitQueued(t, m.key, uniqueName('Listed'));
    await moveSite(t.deps, live, 'live');
    const queued = await submitQueued(t, m.key);
    const unpaid = await submitUnpaid(t, m.key, { plan: 'sponsored' });
    const { html } = await client.page('/account');
    const row = (id: string) => new RegExp(`<tr data-site-id="${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
    for (const id of [live, queued, unpaid.siteId]) {
      expect(row(id)).toMatch(new RegExp(`^<td data-label="Name"><a href="/account/submissions/${id}">`));
      for (const label of ['Website', 'Status', 'Plan', 'Submitted'])
        expect(row(id)).toContain(`data-label="${label}"`);
    }
    // "Next" only where there is a next step: no empty label in the stacked cards.
    expect(row(live)).toContain('<td data-label="Next">');
    expect(row(unpaid.siteId)).toContain('<td data-label="Next">');
    expect(row(queued)).not.toContain('data-label="Next"');
    expect(row(queued)).toMatch(
      /<span class="status queued" data-status="queued">queued for crawling<\/span><div class="queue small">\d+(st|nd|rd|th) in line for crawling/,
    );
    expect(row(live)).toMatch(
      /<span class="status live" data-status="live">live<\/span>[\s\S]*<a href="http:\/\/tooldir\.test\/tools\/[^"]+">Public page<\/a>/,
    );
    expect(row(unpaid.siteId)).toMatch(
      /data-status="pending_payment">waiting for payment<\/span>[\s\S]*<a href="http:\/\/tooldir\.test\/checkout\/cs_local_[^"]+">Pay now<\/a>/,
    );
    // Each row's page opens for its owner.
    for (const id of [live, queued, unpaid.siteId]) expect((await pageOf(client, id)).res.status).toBe(200);
  });

  it('an expired link in the list says where to get a fresh one', async () => {
    const { m, client } = await signedInMember(t, 'none');
    const p = await submitUnpaid(t, m.key);
    await queryRows(
      t.deps.db,
      sql`UPDATE pending_submissions SET expires_at = now() - interval '1 hour' WHERE id = ${p.siteId}`,
    );
    const { html } = await client.page('/account');
    expect(html).toContain('The checkout link has expired; the submission&#39;s page gives a fresh one.');
  });
});
