// Public pages: escaping, CSP, nofollow rules, ordering, search and 404.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { parseListing } from '../../helpers/listing-html';

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp();
  accountId = (await t.member('member')).accountId;
});
afterAll(() => t.close());

let n = 0;
/** Seeds a live site directly (the pipeline itself is covered by the e2e tests). */
async function liveSite(o: {
  name: string;
  slug?: string;
  feature?: boolean;
  sponsor?: boolean;
  description?: string;
  image?: string;
  url?: string;
  daysAgo?: number;
}) {
  const id = crypto.randomUUID();
  const slug = o.slug ?? `site-${++n}-${id.slice(0, 6)}`;
  const url = o.url ?? `https://${slug}.example/`;
  const metadata = {
    title: o.name,
    description: o.description ?? null,
    image: o.image ?? null,
    icon: null,
    canonical: null,
    finalUrl: url,
    finalCanonical: url,
    language: 'en',
  };
  await queryRows(
    t.deps.db,
    sql`INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, is_feature, is_sponsor, slug, live_url, published_at, metadata)
        VALUES (${id}::uuid, ${accountId}::uuid, ${o.name}, ${url}, ${`${url}#${id}`}, ${`${o.name.toLowerCase()} ${id}`}, 'live', 'membership', 'basic',
          ${o.feature ?? false}, ${o.sponsor ?? false}, ${slug}, ${`http://tooldir.test/tools/${slug}`}, now() - ${`${o.daysAgo ?? 0} days`}::interval,
          ${JSON.stringify(metadata)}::jsonb)`,
  );
  return slug;
}

const csp = (res: Response) => res.headers.get('content-security-policy') ?? '';

describe('public pages', () => {
  it('renders a hostile tool name and description as text, with a strict CSP and no script', async () => {
    const slug = await liveSite({
      name: '<script>alert(1)</script>',
      description: '"><img src=x onerror=alert(2)>',
      image: 'javascript:alert(3)',
    });
    const res = await t.request(`/tools/${slug}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The page's one script is the badge box's copy button (test/functions/pages/badge.test.ts), allowed by hash;
    // the other script element is the JSON-LD data block (test/functions/pages/page-seo.test.ts).
    expect(text.match(/<script/g)).toHaveLength(2);
    expect(text.match(/<script type="application\/ld\+json">/g)).toHaveLength(1);
    expect(text).toContain('<script>for(const b of document');
    expect(text).not.toContain('<img src=x');
    expect(text).not.toContain('javascript:');
    expect(text).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; – tooldir</title>');
    expect(csp(res)).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    );
    const home = await (await t.request('/')).text();
    expect(home).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The home page runs no script: its only script elements are JSON-LD data blocks (escaped: directory-cards.test.ts).
    expect(home.match(/<script[^>]*>/g)?.every((tag) => tag === '<script type="application/ld+json">')).toBe(true);
  });

  it('links basic tools with rel="noopener nofollow", featured and sponsored ones with rel="noopener", through the outbound link /go/{slug}', async () => {
    const basic = await liveSite({ name: 'Basic Link Tool', url: 'https://basic-link.example/' });
    const featured = await liveSite({
      name: 'Featured Link Tool',
      feature: true,
      url: 'https://featured-link.example/',
    });
    const sponsored = await liveSite({
      name: 'Sponsored Link Tool',
      sponsor: true,
      url: 'https://sponsored-link.example/',
    });
    expect(await (await t.request(`/tools/${basic}`)).text()).toContain(
      `<a class="button primary" href="/go/${basic}" rel="noopener nofollow" target="_blank">`,
    );
    const f = await (await t.request(`/tools/${featured}`)).text();
    expect(f).toContain(`<a class="button primary" href="/go/${featured}" rel="noopener" target="_blank">`);
    expect(f).toContain('<span class="badge">Featured</span>');
    const s = await (await t.request(`/tools/${sponsored}`)).text();
    expect(s).toContain(`<a class="button primary" href="/go/${sponsored}" rel="noopener" target="_blank">`);
    expect(s).toContain('Sponsored</span>');
  });

  it('lists the sponsored slot first, then the newest tools (featured ones badged, not moved up); and has meta tags', async () => {
    await liveSite({ name: 'Zeta Old Basic', daysAgo: 30 });
    await liveSite({ name: 'Zeta New Basic', daysAgo: 0 });
    await liveSite({ name: 'Zeta Featured', feature: true, daysAgo: 20 });
    await liveSite({ name: 'Zeta Sponsor', sponsor: true, daysAgo: 40 });
    const res = await t.request('/');
    expect(res.status).toBe(200);
    const page = await res.text();
    const text = page.slice(page.indexOf('<main id="main">')); // the cards (the head's JSON-LD names them too)
    const at = (s: string) => text.indexOf(s);
    expect(at('Zeta Sponsor')).toBeGreaterThan(-1);
    expect(at('Zeta Sponsor')).toBeLessThan(at('Zeta New Basic'));
    expect(at('Zeta New Basic')).toBeLessThan(at('Zeta Featured'));
    expect(at('Zeta Featured')).toBeLessThan(at('Zeta Old Basic'));
    expect(text.slice(at('Zeta Featured'), at('Zeta Old Basic'))).toContain('<span class="badge">Featured</span>');
    expect(page).toContain('<meta name="description"');
    expect(page).toContain('<form class="search" method="get" action="/" role="search">'); // the header's, on every page
  });

  it('searches with the directory search (GET /?q=) and escapes the query back into the page', async () => {
    await liveSite({ name: 'Needle Finder Pro' });
    const hit = await (await t.request(`/?q=${encodeURIComponent('needle fin')}`)).text();
    expect(hit).toContain('Needle Finder Pro');
    expect(hit).not.toContain('Zeta Old Basic');
    const hostile = await (await t.request(`/?q=${encodeURIComponent('"><script>x</script>')}`)).text();
    expect(hostile).not.toContain('<script>x');
    expect(hostile).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(await (await t.request('/?q=qqqxxzzzkkk')).text()).toContain('No tool matches your search.');
  });

  it('shows 24 search results a page, with a Next link that pages through the rest without repeats; a forged cursor is a 400 page', async () => {
    for (let i = 0; i < 30; i++) await liveSite({ name: `Pagewise Scanner ${i}`, daysAgo: i });
    const first = parseListing(200, await (await t.request('/?q=pagewise')).text());
    expect(first.cards).toHaveLength(24);
    expect(first.next).toMatch(/^\/\?q=pagewise&cursor=/);
    expect(first.headNext).toBe(first.next);
    const second = parseListing(200, await (await t.request(first.next!)).text());
    expect(second.cards).toHaveLength(6);
    expect(second.next).toBeNull();
    expect(new Set([...first.cards, ...second.cards]).size).toBe(30);
    const forged = await t.request('/?q=pagewise&cursor=not-a-cursor');
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('<a href="/?q=pagewise">Go to the first page</a>');
  });

  it('counts GET /?q= against the per-IP public bucket shared with REST search, and answers a 429 page past it', async () => {
    await liveSite({ name: 'Bucket Counter' });
    const ip = { 'cf-connecting-ip': '198.51.100.200' };
    // Distinct searches: one the page cache holds is served without counting (docs/pages.md "Caching and rate limits").
    for (let i = 0; i < 59; i++)
      expect((await t.request(`/api/v1/tools?q=bucket+${i}`, { headers: ip })).status).toBe(200);
    const last = await t.request('/?q=bucket', { headers: ip });
    expect(last.status).toBe(200);
    expect(await last.text()).toContain('Bucket Counter');
    expect(last.headers.get('ratelimit-remaining')).toBe('0');

    const refused = await t.request('/?q=bucket+counter', { headers: ip });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(csp(refused)).toContain("default-src 'none'");
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe('60');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const page = await refused.text();
    expect(page).toContain('<h1>Too many searches</h1>');
    expect(page).toContain(`try again in ${retryAfter} s`);
    expect(page).not.toContain('Bucket Counter');
    // The REST search of that address is refused too (one bucket), and so is any public page the cache does not
    // hold; the search just answered is held, and is served to it all the same.
    expect((await t.request('/api/v1/tools?q=bucket+more', { headers: ip })).status).toBe(429);
    expect((await t.request('/?after=x', { headers: ip })).status).toBe(429);
    expect((await t.request('/tools/no-such-tool', { headers: ip })).status).toBe(429);
    const held = await t.request('/?q=bucket', { headers: ip });
    expect(held.status).toBe(200);
    expect(held.headers.get('x-cache')).toBe('hit');
    expect((await t.request('/?q=bucket+counter', { headers: { 'cf-connecting-ip': '198.51.100.201' } })).status).toBe(
      200,
    );
  });

  it('answers 404 pages for unknown, malformed and non-live slugs, also with the CSP', async () => {
    for (const path of ['/tools/no-such-tool', '/tools/..%2Fetc', '/tools/UPPER', '/nowhere']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(csp(res)).toContain("default-src 'none'");
      expect(await res.text()).toContain('Not found');
    }
    const slug = await liveSite({ name: 'Taken Down Tool' });
    await queryRows(t.deps.db, sql`UPDATE sites SET status = 'rejected' WHERE slug = ${slug}`);
    expect((await t.request(`/tools/${slug}`)).status).toBe(404);
  });
});
