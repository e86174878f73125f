// What search engines and link previews read on the public pages (docs/seo.md): a tool page's JSON-LD
// SoftwareApplication, parsed back as JSON; and canonical, Open Graph and Twitter card tags on the configured
// origin (never the request's Host) on the home page, a tool page and the 404 page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools, type SeededTool } from '../../helpers/live-tools';

const origin = 'https://tools.example.org'; // SITE_ORIGIN; the test requests go to http://tooldir.test
const hostileName = `</script><script>alert(1)</script>\u2028<!-- Tool`;
const hostileDescription = 'Writes & rewrites <b>text</b>\u2029 "quoted" </SCRIPT >';
const image = `${'ab'.repeat(32)}.png`;
let t: TestApp;
let rich: SeededTool;
let plain: SeededTool;

beforeAll(async () => {
  t = await createTestApp({ env: { SITE_ORIGIN: origin } });
  const seeded = await seedTools(
    t.deps.db,
    [
      { name: hostileName, description: hostileDescription, image, categories: ['writing', 'code'] },
      { name: 'Plain Tool', categories: ['video'] },
    ],
    origin,
  );
  [rich, plain] = [seeded[0]!, seeded[1]!];
});
afterAll(() => t.close());

function jsonLdBlocks(page: string): unknown[] {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => {
    // Nothing the submitter wrote may appear raw inside the block: no tag, no comment, no line separator.
    expect(m[1]).not.toMatch(/[<>\u2028\u2029]/);
    return JSON.parse(m[1]!);
  });
}

const meta = (page: string, attr: 'property' | 'name', key: string) =>
  [...page.matchAll(new RegExp(`<meta ${attr}="${key.replace(/[:+]/g, '\\$&')}" content="([^"]*)">`, 'g'))].map(
    (m) => m[1],
  );
const canonicals = (page: string) => [...page.matchAll(/<link rel="canonical" href="([^"]*)">/g)].map((m) => m[1]);

describe('tool page JSON-LD', () => {
  it('describes the tool as a SoftwareApplication that parses back to exactly its record, hostile text included', async () => {
    const res = await t.request(`/tools/${rich.slug}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(jsonLdBlocks(page)).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'SoftwareApplication',
        name: hostileName,
        url: rich.url,
        description: hostileDescription,
        image: `${origin}/media/${image}`,
        applicationCategory: ['Code', 'Writing'],
      },
    ]);
    // The page still runs only its one hashed script (the badge box's copy button); the JSON-LD block is data.
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page.match(/<script\b/g)).toHaveLength(2);
    expect(page).not.toContain('<script>alert(1)');
  });

  it('leaves out what is unknown: no image, no description, no offers (the crawl keeps no price)', async () => {
    const page = await (await t.request(`/tools/${plain.slug}`)).text();
    expect(jsonLdBlocks(page)).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'SoftwareApplication',
        name: 'Plain Tool',
        url: plain.url,
        applicationCategory: 'Video',
      },
    ]);
  });
});

describe('canonical, Open Graph and Twitter card tags', () => {
  it('home: the configured origin, a website, a summary card', async () => {
    const page = await (await t.request('/?q=writing')).text();
    expect(canonicals(page)).toEqual([`${origin}/`]);
    expect(meta(page, 'property', 'og:url')).toEqual([`${origin}/`]);
    expect(meta(page, 'property', 'og:type')).toEqual(['website']);
    expect(meta(page, 'property', 'og:site_name')).toEqual(['tooldir']);
    expect(meta(page, 'property', 'og:title')).toHaveLength(1);
    expect(meta(page, 'name', 'twitter:card')).toEqual(['summary']);
    expect(meta(page, 'name', 'twitter:title')).toHaveLength(1);
    expect(meta(page, 'name', 'twitter:description')).toHaveLength(1);
  });

  it('tool page: its sitemap address, an article, and our own copy of its image for the large card', async () => {
    const page = await (await t.request(`/tools/${rich.slug}`)).text();
    expect(canonicals(page)).toEqual([`${origin}/tools/${rich.slug}`]);
    expect(meta(page, 'property', 'og:url')).toEqual([`${origin}/tools/${rich.slug}`]);
    expect(meta(page, 'property', 'og:type')).toEqual(['article']);
    expect(meta(page, 'property', 'og:site_name')).toEqual(['tooldir']);
    expect(meta(page, 'property', 'og:image')).toEqual([`${origin}/media/${image}`]);
    expect(meta(page, 'name', 'twitter:card')).toEqual(['summary_large_image']);
    expect(meta(page, 'name', 'twitter:image')).toEqual([`${origin}/media/${image}`]);
    expect(meta(page, 'name', 'twitter:title')).toEqual([
      `&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;\u2028&lt;!-- Tool – tooldir`,
    ]);
    const sitemap = await (await t.request('/sitemap.xml')).text();
    expect(sitemap).toContain(`<loc>${origin}/tools/${rich.slug}</loc>`);
    expect(await (await t.request('/robots.txt')).text()).toContain(`\nSitemap: ${origin}/sitemap.xml\n`);
    expect(await (await t.request('/llms.txt')).text()).toContain(`${origin}/sitemap.xml lists them all`);
  });

  it('404 page: not indexed, no canonical or og:url (it is no address of its own), still a titled card', async () => {
    for (const path of ['/no-such-page', '/tools/no-such-tool']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      const page = await res.text();
      expect(page, path).toContain('<meta name="robots" content="noindex">');
      expect(canonicals(page), path).toEqual([]);
      expect(meta(page, 'property', 'og:url'), path).toEqual([]);
      expect(meta(page, 'property', 'og:type'), path).toEqual(['website']);
      expect(meta(page, 'name', 'twitter:card'), path).toEqual(['summary']);
      expect(jsonLdBlocks(page), path).toEqual([]);
    }
  });
});
