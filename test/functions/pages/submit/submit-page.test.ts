import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { planPrices } from '../../../../src/catalog/plans';
import { priceText } from '../../../../src/submissions/plan-words';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueName, uniqueUrl } from '../../../helpers/test-app';
import { PageClient, csrfOf, latestCode, newEmail, uniqueIp } from '../account/account-client';

// /submit through app.request: the same verb as POST /api/v1/submit-site, CSRF, one submission per form, every
// error on the form next to its field with what was typed kept (issue 20, point 4).
let t: TestApp;
const CATEGORIES = [
  `writing-${crypto.randomUUID().slice(0, 6)}`,
  `images-${crypto.randomUUID().slice(0, 6)}`,
  `audio-${crypto.randomUUID().slice(0, 6)}`,
  `video-${crypto.randomUUID().slice(0, 6)}`,
];

beforeAll(async () => {
  t = await createTestApp();
  for (const slug of CATEGORIES) {
    const res = await t.request('/api/v1/admin/categories', {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { slug, name: `Cat ${slug}` },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const keyOf = (html: string) => /name="idempotency_key" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** A signed-in person (new account with no tier, or an operator-made member) with the form open. */
async function signedIn(tier?: 'member' | 'memberFeature') {
  const client = new PageClient(t, uniqueIp());
  const email = tier ? (await t.member(tier)).email : newEmail();
  await client.signIn(email);
  const [account] = await queryRows<{ id: string }>(t.deps.db, sql`SELECT id FROM accounts WHERE email = ${email}`);
  return { client, email, accountId: account!.id };
}

/** Opens the form and posts it with `fields` (the page's CSRF token and key unless given). */
async function submit(client: PageClient, fields: Record<string, string | string[]>, from?: string) {
  const form = from ?? (await client.page('/submit')).html;
  const body = new URLSearchParams();
  body.set('_csrf', csrfOf(form));
  body.set('idempotency_key', keyOf(form));
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) {
      body.delete(name);
      for (const v of value) body.append(name, v);
    } else body.set(name, value);
  }
  const res = await postRaw(client, body);
  return { res, html: await res.text() };
}

const postRaw = (client: PageClient, body: URLSearchParams, headers: Record<string, string> = {}) =>
  client.request('/submit', { form: body, headers });

const countRows = async (table: 'sites' | 'pending_submissions', accountId: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.deps.db,
        sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE account_id = ${accountId}`,
      )
    )[0]!.n,
  );

describe('/submit signed out', () => {
  it('leads through sign-in and keeps the chosen plan (pro is sponsored; an unknown plan is dropped)', async () => {
    const client = new PageClient(t, uniqueIp());
    for (const [query, next] of [
      ['?plan=featured', '/submit?plan=featured'],
      ['?plan=pro', '/submit?plan=sponsored'],
      ['?plan=gold', '/submit'],
      ['', '/submit'],
    ] as const) {
      const res = await client.request(`/submit${query}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/account/sign-in?next=${encodeURIComponent(next)}`);
    }
  });

  it('a new address signs up on the way and comes back to the form with its plan chosen', async () => {
    const client = new PageClient(t, uniqueIp());
    const toSignIn = (await client.request('/submit?plan=featured')).headers.get('location')!;
    const signInPage = await client.page(toSignIn);
    expect(signInPage.html).toContain('Sign in to submit your tool');
    expect(signInPage.html).toContain('name="next" value="/submit?plan=featured"');
    const email = newEmail();
    const codePage = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(signInPage.html), email, next: '/submit?plan=featured' },
    });
    const codeHtml = await codePage.text();
    expect(codeHtml).toContain('name="next" value="/submit?plan=featured"');
    const done = await client.request('/account/sign-in/code', {
      form: { _csrf: csrfOf(codeHtml), email, code: await latestCode(t, email), next: '/submit?plan=featured' },
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/submit?plan=featured');
    const form = await client.page('/submit?plan=featured');
    expect(form.res.status).toBe(200);
    expect(form.html).toMatch(/<input type="radio" id="plan-featured" name="plan" value="featured" checked>/);
    expect(form.html).not.toMatch(/value="basic" checked/);
  });

  it('a POST after the session ended goes to sign-in, keeping the plan, and creates nothing', async () => {
    const client = new PageClient(t, uniqueIp());
    const res = await client.request('/submit', {
      form: { _csrf: 'x', idempotency_key: 'k', name: 'Acme', url: uniqueUrl(), plan: 'sponsored' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/sign-in?next=${encodeURIComponent('/submit?plan=sponsored')}`);
  });
});

describe('/submit form', () => {
  it('shows the fields, the prices from the plan table, the account address, categories, a key and the wait', async () => {
    const { client, email } = await signedIn();
    const { res, html } = await client.page('/submit');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<a class="button primary" href="\/submit" aria-current="page">Submit a tool<\/a>/);
    for (const id of ['name', 'url', 'email']) expect(html).toMatch(new RegExp(`<label for="${id}">`));
    expect(html).toContain(`Leave it empty to use your account's address, ${email}.`);
    expect(html).toContain(`<strong>Basic</strong> – ${priceText(planPrices.basic)}`);
    expect(html).toContain(`<strong>Featured</strong> – ${priceText(planPrices.featured)}`);
    expect(html).toContain(`<strong>Sponsored</strong> – ${priceText(planPrices.sponsored)}`);
    expect(priceText(planPrices.sponsored)).toBe('29.90 USD a month');
    expect(html).toMatch(/value="basic" checked/);
    expect(html).not.toContain('included');
    expect(html).toContain('<legend>Categories <span class="muted">(up to 3, optional)</span></legend>');
    for (const slug of CATEGORIES) expect(html).toContain(`name="categories" value="${slug}"`);
    expect(keyOf(html)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf((await client.page('/submit')).html)).not.toBe(keyOf(html)); // a fresh key per rendering
    expect(html).toContain('id="wait-estimate"');
    expect(html).toContain('How long it takes');
  });

  it("marks the plans a member's quota covers as included, with today's count", async () => {
    const member = await signedIn('member');
    let html = (await member.client.page('/submit')).html;
    expect(html).toMatch(
      /<strong>Basic<\/strong> – [^<]+ <strong class="included">included<\/strong> <span class="muted">\(5 of 5 left today\)<\/span>/,
    );
    expect(html).not.toMatch(/<strong>Featured<\/strong> – [^<]+ <strong class="included">/);
    const featured = await signedIn('memberFeature');
    html = (await featured.client.page('/submit')).html;
    expect(html).toMatch(
      /<strong>Basic<\/strong> – [^<]+ <strong class="included">included<\/strong> <span class="muted">\(10 of 10 left today\)/,
    );
    expect(html).toMatch(/<strong>Featured<\/strong> – [^<]+ <strong class="included">included<\/strong>/);
    expect(html).not.toMatch(/<strong>Sponsored<\/strong> – [^<]+ <strong class="included">/);
  });
});

describe('/submit POST', () => {
  it('anyone without a covering membership goes to the checkout (303), with the plan and categories on the record', async () => {
    const { client, accountId } = await signedIn();
    const url = uniqueUrl();
    const { res } = await submit(client, {
      name: uniqueName('Acme'),
      url,
      plan: 'featured',
      categories: [CATEGORIES[0]!, CATEGORIES[1]!],
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^http:\/\/tooldir\.test\/checkout\/cs_local_/);
    const [pending] = await queryRows<{
      plan: string;
      url: string;
      checkout_url: string;
      categories: string[];
      email: string | null;
    }>(
      t.deps.db,
      sql`SELECT plan, url, checkout_url, categories, email FROM pending_submissions WHERE account_id = ${accountId}`,
    );
    expect(pending).toMatchObject({ plan: 'featured', url: `${url}/`, checkout_url: location, email: null });
    expect([...pending!.categories].sort()).toEqual([CATEGORIES[0], CATEGORIES[1]].sort());
  });

  it('a member with quota goes straight to the submission page (303), queued, with the contact address given', async () => {
    const { client, accountId } = await signedIn('member');
    const { res } = await submit(client, {
      name: uniqueName('Member Tool'),
      url: uniqueUrl(),
      plan: 'basic',
      email: 'press@acme.example',
    });
    expect(res.status).toBe(303);
    const [site] = await queryRows<{ id: string; status: string; via: string; email: string }>(
      t.deps.db,
      sql`SELECT id, status, via, email FROM sites WHERE account_id = ${accountId}`,
    );
    expect(res.headers.get('location')).toBe(`/account/submissions/${site!.id}`);
    expect(site).toMatchObject({ status: 'queued', via: 'membership', email: 'press@acme.example' });
  });

  it('a double click (two POSTs of one form at once) and a reload create one submission and answer the same', async () => {
    const { client, accountId } = await signedIn('member');
    const form = (await client.page('/submit')).html;
    const fields = { name: uniqueName('Twice'), url: uniqueUrl() };
    const [a, b] = await Promise.all([submit(client, fields, form), submit(client, fields, form)]);
    const reload = await submit(client, fields, form);
    for (const r of [a, b, reload]) expect(r.res.status).toBe(303);
    expect(new Set([a, b, reload].map((r) => r.res.headers.get('location'))).size).toBe(1);
    expect(await countRows('sites', accountId)).toBe(1);
    const [quota] = await queryRows<{ used: number }>(
      t.deps.db,
      sql`SELECT used FROM quota_usage WHERE account_id = ${accountId}`,
    );
    expect(Number(quota!.used)).toBe(1);
  });

  it('the same for a paid plan: one pending record, one checkout link', async () => {
    const { client, accountId } = await signedIn();
    const form = (await client.page('/submit')).html;
    const fields = { name: uniqueName('Paid Twice'), url: uniqueUrl(), plan: 'sponsored' };
    const [a, b] = await Promise.all([submit(client, fields, form), submit(client, fields, form)]);
    expect(a.res.headers.get('location')).toBe(b.res.headers.get('location'));
    expect(await countRows('pending_submissions', accountId)).toBe(1);
    const sessions = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM checkout_sessions WHERE account_id = ${accountId}`,
    );
    expect(Number(sessions[0]!.n)).toBe(1);
  });

  it('the same key with other details is refused on the form (422) with a fresh key, creating nothing more', async () => {
    const { client, accountId } = await signedIn('member');
    const form = (await client.page('/submit')).html;
    await submit(client, { name: uniqueName('First'), url: uniqueUrl() }, form);
    const other = await submit(client, { name: uniqueName('Second'), url: uniqueUrl() }, form);
    expect(other.res.status).toBe(422);
    expect(other.html).toContain('This form was already sent with other details');
    expect(keyOf(other.html)).not.toBe(keyOf(form));
    expect(await countRows('sites', accountId)).toBe(1);
  });

  it('refuses a POST without the CSRF token, with a wrong one or from another site (403), creating nothing', async () => {
    const { client, accountId } = await signedIn('member');
    const form = (await client.page('/submit')).html;
    const base = { idempotency_key: keyOf(form), name: uniqueName('Forged'), url: uniqueUrl() };
    const cases: Array<[URLSearchParams, Record<string, string>]> = [
      [new URLSearchParams(base), {}],
      [new URLSearchParams({ ...base, _csrf: 'A'.repeat(32) }), {}],
      [new URLSearchParams({ ...base, _csrf: csrfOf(form) }), { origin: 'https://evil.example' }],
      [new URLSearchParams({ ...base, _csrf: csrfOf(form) }), { 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [body, headers] of cases) {
      const res = await postRaw(client, body, headers);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('did not come from this site');
    }
    expect(await countRows('sites', accountId)).toBe(0);
  });

  it('refuses a form without its key (400) and a body that is not a form', async () => {
    const { client } = await signedIn();
    const form = (await client.page('/submit')).html;
    const res = await postRaw(client, new URLSearchParams({ _csrf: csrfOf(form), name: 'Acme', url: uniqueUrl() }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('This form is incomplete');
    const json = await client.request('/submit', { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
  });
});

describe('/submit errors on the form', () => {
  /** The field's input carries aria-invalid and points at its message, which says `words`; the summary too. */
  const expectFieldError = (html: string, field: string, words: string) => {
    expect(html).toMatch(
      new RegExp(
        `id="${field}"[^>]*aria-invalid="true" aria-describedby="${field}-error"|id="${field}" aria-describedby="${field}-error"`,
      ),
    );
    expect(html).toContain(`<span class="field-error" id="${field}-error">${words}`);
    expect(html).toMatch(/<div class="error" role="alert" id="error-summary">/);
  };

  it('an invalid address, kept as typed', async () => {
    const { client } = await signedIn();
    const { res, html } = await submit(client, { name: 'Acme Writer', url: 'acme writer dot com', plan: 'featured' });
    expect(res.status).toBe(400);
    expectFieldError(html, 'url', 'Enter the website&#39;s address, such as https://acme.com.');
    expect(html).toContain('value="acme writer dot com"');
    expect(html).toContain('value="Acme Writer"');
    expect(html).toMatch(/value="featured" checked/);
    const broken = await submit(client, { name: 'Acme Writer', url: 'http://' });
    expectFieldError(broken.html, 'url', 'Enter the website&#39;s address, such as https://acme.com.'); // never "starts with http://"
  });

  it('a blank name, a name with no visible character, an empty address', async () => {
    const { client } = await signedIn();
    let r = await submit(client, { name: '   ', url: '' });
    expect(r.res.status).toBe(400);
    expectFieldError(r.html, 'name', 'Enter the tool&#39;s name.');
    expectFieldError(r.html, 'url', 'Enter the website&#39;s address, such as https://acme.com.');
    r = await submit(client, { name: '\u200b\u200b\u200b', url: uniqueUrl() });
    expect(r.res.status).toBe(400);
    expectFieldError(r.html, 'name', 'The name must contain visible characters.');
    expect(r.html).toContain('value="\u200b\u200b\u200b"');
  });

  it('an invalid contact address', async () => {
    const { client } = await signedIn();
    const r = await submit(client, { name: 'Acme', url: uniqueUrl(), email: 'not-an-address' });
    expect(r.res.status).toBe(400);
    expectFieldError(r.html, 'email', 'Enter a valid e-mail address');
    expect(r.html).toContain('value="not-an-address"');
  });

  it('an MCP endpoint: a malformed one next to its field, kept as typed, nothing stored; a valid one stored', async () => {
    const { client, accountId } = await signedIn('member');
    const r = await submit(client, { name: 'Acme', url: uniqueUrl(), mcp_url: 'https://user:pw@acme.example/mcp' });
    expect(r.res.status).toBe(400);
    expectFieldError(r.html, 'mcp_url', 'The MCP address must not contain a user name or password');
    expect(r.html).toContain('value="https://user:pw@acme.example/mcp"');
    expect(await countRows('sites', accountId)).toBe(0);
    const ok = await submit(client, {
      name: uniqueName('Mcp Tool'),
      url: uniqueUrl(),
      mcp_url: 'https://Acme.example/mcp',
    });
    expect(ok.res.status).toBe(303);
    const [site] = await queryRows<{ mcp_url: string }>(
      t.deps.db,
      sql`SELECT mcp_url FROM sites WHERE account_id = ${accountId}`,
    );
    expect(site?.mcp_url).toBe('https://acme.example/mcp');
  });

  it('too many categories, and an unknown one (a stale or forged form), each next to the categories', async () => {
    const { client, accountId } = await signedIn();
    let r = await submit(client, { name: 'Acme', url: uniqueUrl(), categories: CATEGORIES });
    expect(r.res.status).toBe(400);
    expectFieldError(r.html, 'categories', 'Choose at most 3 categories.');
    for (const slug of CATEGORIES) expect(r.html).toContain(`value="${slug}" checked`);
    r = await submit(client, { name: 'Acme', url: uniqueUrl(), categories: [CATEGORIES[0]!, 'no-such-category'] });
    expect(r.res.status).toBe(400);
    expectFieldError(
      r.html,
      'categories',
      'We have no category &quot;no-such-category&quot; (any more): choose from the list.',
    );
    expect(r.html).toContain(`value="${CATEGORIES[0]}" checked`);
    expect(await countRows('pending_submissions', accountId)).toBe(0);
  });

  it("a duplicate of the person's own submission links to it", async () => {
    const { client } = await signedIn('member');
    const url = uniqueUrl();
    const first = await submit(client, { name: uniqueName('Mine'), url });
    const own = first.res.headers.get('location')!;
    const again = await submit(client, { name: uniqueName('Mine again'), url: `${url}/` });
    expect(again.res.status).toBe(409);
    expectFieldError(
      again.html,
      'url',
      `You already submitted this address: <a href="${own}">see your submission</a>.`,
    );
    const sameName = await submit(client, {
      name: (
        await queryRows<{ name: string }>(t.deps.db, sql`SELECT name FROM sites WHERE id = ${own.split('/').at(-1)!}`)
      )[0]!.name.toUpperCase(),
      url: uniqueUrl(),
    });
    expect(sameName.res.status).toBe(409);
    expectFieldError(
      sameName.html,
      'name',
      `You already submitted this name: <a href="${own}">see your submission</a>.`,
    );
  });

  it("a duplicate of someone else's live tool links to its page; of one not live, says so without a link", async () => {
    const owner = await t.member('member');
    const url = uniqueUrl();
    const made = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: owner.key,
      json: { name: uniqueName('Theirs'), url },
    });
    const { site_id } = (await made.json()) as { site_id: string };
    const { client } = await signedIn();
    const notLive = await submit(client, { name: uniqueName('Copy'), url });
    expect(notLive.res.status).toBe(409);
    expectFieldError(notLive.html, 'url', 'A tool with this address has already been submitted by someone else.');
    expect(notLive.html).not.toContain(site_id);
    const slug = `theirs-${site_id.slice(0, 8)}`;
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'live', slug = ${slug}, live_url = ${`http://tooldir.test/tools/${slug}`} WHERE id = ${site_id}`,
    );
    const live = await submit(client, { name: uniqueName('Copy'), url });
    expectFieldError(
      live.html,
      'url',
      `A tool with this address is already listed: <a href="/tools/${slug}">see its page</a>.`,
    );
  });

  it('the daily limit: says when it starts over (UTC midnight) and offers to pay for this one', async () => {
    const { client, accountId } = await signedIn('member');
    const day = new Date().toISOString().slice(0, 10);
    await queryRows(
      t.deps.db,
      sql`INSERT INTO quota_usage (account_id, day, used) VALUES (${accountId}, ${day}::date, 5)`,
    );
    const form = (await client.page('/submit')).html;
    expect(form).toMatch(/included, but today's 5 are used \(they start over at \d{4}-\d{2}-\d{2} 00:00 UTC\)/);
    const r = await submit(client, { name: uniqueName('Over'), url: uniqueUrl() }, form);
    expect(r.res.status).toBe(402);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expectFieldError(
      r.html,
      'plan',
      `You have used today&#39;s 5 submissions included in your membership; they start over at ${tomorrow} 00:00 UTC.`,
    );
    const [pending] = await queryRows<{ checkout_url: string; reason: string }>(
      t.deps.db,
      sql`SELECT checkout_url, reason FROM pending_submissions WHERE account_id = ${accountId}`,
    );
    expect(pending!.reason).toBe('quota_exceeded');
    expect(r.html).toContain(
      `<a class="button" id="pay-now" href="${pending!.checkout_url}" rel="noopener">Pay for this one now</a>`,
    );
    expect(await countRows('sites', accountId)).toBe(0);
  });

  it('rate limited with the API: the same per-account submit bucket, 429 on the form with Retry-After', async () => {
    const m = await t.member('none');
    for (let i = 0; i < 10; i++) {
      const res = await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: { name: uniqueName('Burst'), url: uniqueUrl() },
      });
      expect(res.status).toBe(402);
    }
    const client = new PageClient(t, uniqueIp());
    await client.signIn(m.email);
    const url = uniqueUrl();
    const r = await submit(client, { name: 'One Too Many', url });
    expect(r.res.status).toBe(429);
    expect(Number(r.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.html).toMatch(
      /Too many submissions from your account in the last minute\. Wait \d+ seconds? and press Submit again\./,
    );
    expect(r.html).toContain(`value="${url}"`);
    const none = await queryRows(t.deps.db, sql`SELECT 1 FROM pending_submissions WHERE url = ${url}`);
    expect(none).toHaveLength(0);
  });
});

describe('sign-in with SIGNUP=closed and hostile next values on the way to /submit', () => {
  it('the sign-in page on the way says how to get an account', async () => {
    const closed = await createTestApp({ env: { SIGNUP: 'closed' } });
    try {
      const client = new PageClient(closed, uniqueIp());
      const location = (await client.request('/submit?plan=basic')).headers.get('location')!;
      const { html } = await client.page(location);
      expect(html).toContain('New sign-ups are closed: only the operator who runs this directory can open an account.');
      expect(html).toContain('POST /api/v1/admin/accounts');
    } finally {
      await closed.close();
    }
  });
});
