// /feed.xml (docs/change-feed.md "Atom"): the newest listings as an Atom 1.0 feed, well-formed (parsed by libxml2)
// whatever the names are, kept by the page cache like the pages, and linked from every page's <head>.
import { sql } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]!);

/** libxml2's complaints about the document (empty when it is well-formed XML). */
async function xmlErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'feed.xml', contents: xml }], normalization: 'c14n' });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

/** Each <entry> of the feed as its child elements' decoded texts and its link. */
function entries(xml: string) {
  return [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => {
    const text = (tag: string) => {
      const found = new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`).exec(m[1]!);
      return found ? decode(found[1]!) : undefined;
    };
    return {
      id: text('id'),
      title: text('title'),
      updated: text('updated'),
      summary: text('summary'),
      link: decode(/<link rel="alternate" type="text\/html" href="([^"]*)"\/>/.exec(m[1]!)?.[1] ?? ''),
    };
  });
}

let t: TestApp;
let address = 0;
const get = (path: string, headers: Record<string, string> = {}) =>
  t.request(path, { headers: { 'cf-connecting-ip': `198.51.100.${++address % 250}`, ...headers } });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /feed.xml', () => {
  it('is a well-formed Atom feed of the newest listings, newest first, each with its page and summary', async () => {
    const hostile = `Evil <script>alert("x")</script> & 'quotes' ]]> </feed><entry>`;
    const tools = await seedTools(t.deps.db, [
      { name: 'Feed Oldest', publishedAt: new Date(Date.now() - 3_000), description: 'The oldest one.' },
      { name: hostile, publishedAt: new Date(Date.now() - 2_000), description: `<b>bold</b> & "more"` },
      { name: 'Feed Hidden', publishedAt: new Date(Date.now() - 1_000) },
      { name: 'Feed In Review', status: 'pending_review' },
    ]);
    await queryRows(t.deps.db, sql`UPDATE sites SET health_hidden = true WHERE id = ${tools[2]!.id}::uuid`);

    const res = await get('/feed.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('public');
    expect(res.headers.get('etag')).toBeTruthy();
    const xml = await res.text();
    expect(await xmlErrors(xml)).toEqual([]);
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain('<id>http://tooldir.test/feed.xml</id>');
    expect(xml).not.toContain('<script>');

    const list = entries(xml);
    const titles = list.map((e) => e.title);
    // Hidden by the daily check and not yet live: not in the feed. The hostile name comes back exactly, as text.
    expect(titles).not.toContain('Feed Hidden');
    expect(titles).not.toContain('Feed In Review');
    expect(titles.indexOf(hostile)).toBeGreaterThanOrEqual(0);
    expect(titles.indexOf(hostile)).toBeLessThan(titles.indexOf('Feed Oldest'));
    const evil = list.find((e) => e.title === hostile)!;
    expect(evil).toMatchObject({
      id: `urn:uuid:${tools[1]!.id}`,
      link: `http://tooldir.test/tools/${tools[1]!.slug}`,
      summary: '<b>bold</b> & "more"',
    });
    expect(Date.parse(evil.updated!)).not.toBeNaN();
    // The feed's updated is its newest entry's.
    expect(decode(/<feed[^>]*>[\s\S]*?<updated>([^<]*)<\/updated>/.exec(xml)![1]!)).toBe(list[0]!.updated);
  });

  it('is kept by the page cache until the listing changes, and answers 304 to its ETag', async () => {
    const first = await get('/feed.xml');
    const etag = first.headers.get('etag')!;
    const again = await get('/feed.xml');
    expect(again.headers.get('x-cache')).toBe('hit');
    expect((await get('/feed.xml', { 'if-none-match': etag })).status).toBe(304);
    await seedTools(t.deps.db, [{ name: 'Feed Newcomer' }]);
    const after = await get('/feed.xml');
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(entries(await after.text())[0]!.title).toBe('Feed Newcomer');
  });

  it('is linked from the <head> of every page', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Feed Linked', categories: ['writing'] }]);
    const link = '<link rel="alternate" type="application/atom+xml" title="tooldir: new listings" href="/feed.xml">';
    for (const path of [
      '/',
      `/tools/${tool!.slug}`,
      '/categories/writing',
      '/account/sign-in',
      '/about/checks',
      '/pricing',
      '/no-such-page',
    ]) {
      const page = await get(path);
      expect([200, 404], path).toContain(page.status);
      const head = /<head>([\s\S]*?)<\/head>/.exec(await page.text())?.[1];
      expect(head, path).toContain(link);
    }
  });
});
