// Cards on the home and category pages (docs/pages.md): /categories/{slug} with its count of live tools only,
// chips that link to categories, own media or a placeholder, JSON-LD ItemLists that match the cards, escaping
// of hostile text in cards and JSON-LD, and a full page under 50 KB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTools } from '../../helpers/live-tools';
import { readListing, type ListingRead } from '../../helpers/listing-html';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ip = () => ({ 'cf-connecting-ip': `10.77.0.${1 + Math.floor(Math.random() * 250)}` });
async function category(name: string, description: string | null = null): Promise<string> {
  const slug = `${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/-$/, '')}-${crypto.randomUUID().slice(0, 6)}`;
  const res = await t.request('/api/v1/admin/categories', {
    method: 'POST',
    key: ADMIN_TOKEN,
    headers: ip(),
    json: { slug, name, description },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return slug;
}
const MEDIA = `${'ab'.repeat(32)}.png`;
const ICON = `${'cd'.repeat(32)}.ico`;
const cardOf = (page: ListingRead, slug: string) =>
  page.html.match(
    new RegExp(`<li class="card">(?:(?!<li class="card">).)*?href="/tools/${slug}".*?</div></li>`, 's'),
  )?.[0] ?? '';

/** The page's JSON-LD ItemList agrees with its cards: positions 1..n, absolute tool URLs, names. */
function expectItemList(page: ListingRead, names: Map<string, string>) {
  const lists = page.jsonLd.filter((block) => block['@type'] === 'ItemList');
  expect(lists).toHaveLength(1);
  const list = lists[0] as {
    '@context': string;
    numberOfItems: number;
    itemListElement: Array<Record<string, unknown>>;
  };
  expect(list['@context']).toBe('https://schema.org');
  const shown = [...page.sponsored, ...page.cards];
  expect(shown.length).toBeGreaterThan(0);
  expect(list.numberOfItems).toBe(shown.length);
  expect(list.itemListElement).toEqual(
    shown.map((slug, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      url: `http://tooldir.test/tools/${slug}`,
      name: names.get(slug) ?? expect.any(String),
    })),
  );
}

describe('category pages', () => {
  let writing: string;
  let other: string;
  const names = new Map<string, string>();
  const seeded: Record<string, string> = {};

  beforeAll(async () => {
    writing = await category('Long Form Writing', 'Tools that draft, edit and polish prose.');
    other = await category('Zz Other');
    const tools = await seedTools(t.deps.db, [
      { name: 'Quill Live', categories: [writing, other], image: MEDIA, isFeature: true },
      { name: 'Ink Live', categories: [writing], icon: ICON },
      {
        name: 'Old Remote Image',
        categories: [writing],
        image: 'https://tool.example/og.png',
        icon: 'https://tool.example/favicon.ico',
      },
      { name: 'Sponsor Pen', categories: [writing], isSponsor: true },
      { name: 'Pending Pen', categories: [writing], status: 'pending_review' },
      { name: 'Queued Pen', categories: [writing], status: 'queued' },
      { name: 'Rejected Pen', categories: [writing], status: 'rejected' },
      { name: 'Uncategorised Live' },
    ]);
    for (const tool of tools) {
      seeded[tool.name] = tool.slug;
      names.set(tool.slug, tool.name);
    }
  });

  it('shows the name, description, count and cards of live tools only, the sponsor first', async () => {
    const page = await readListing(t, `/categories/${writing}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Long Form Writing</h1>');
    expect(page.html).toContain('<p>Tools that draft, edit and polish prose.</p>');
    expect(page.html).toContain('<p class="muted">4 tools</p>');
    expect(page.sponsored).toEqual([seeded['Sponsor Pen']]);
    expect(page.cards).toEqual([seeded['Quill Live'], seeded['Ink Live'], seeded['Old Remote Image']].reverse()); // newest first
    expect(page.next).toBeNull();
    expect(page.prev).toBeNull();
    expect(page.canonical).toBe(`http://tooldir.test/categories/${writing}`);
    for (const hidden of ['Pending Pen', 'Queued Pen', 'Rejected Pen', 'Uncategorised Live'])
      expect(page.html).not.toContain(hidden);
    expectItemList(page, names);

    const api = (await (await t.request('/api/v1/categories', { headers: ip() })).json()) as {
      categories: Array<{ slug: string; tool_count: number }>;
    };
    expect(api.categories.find((c) => c.slug === writing)?.tool_count).toBe(4);
    const home = await readListing(t, '/');
    expect(home.html).toContain(
      `<li><a href="/categories/${writing}">Long Form Writing <span class="count">4</span></a></li>`,
    );
    expect(home.html).toContain(`<li><a href="/categories/${other}">Zz Other <span class="count">1</span></a></li>`);
    // A category without a live tool leads nowhere: the home page leaves it out; the API still lists it with 0.
    const empty = api.categories.filter((c) => c.tool_count === 0);
    expect(empty.length).toBeGreaterThan(0);
    for (const category of empty) expect(home.html).not.toContain(`<a href="/categories/${category.slug}">`);
    expectItemList(home, names);
  });

  it('gives cards chips that link to each category, and pictures only from our own media or a placeholder', async () => {
    const page = await readListing(t, `/categories/${writing}`);
    const quill = cardOf(page, seeded['Quill Live']!);
    expect(quill).toContain(
      `<ul class="chips"><li><a href="/categories/${writing}">Long Form Writing</a></li><li><a href="/categories/${other}">Zz Other</a></li></ul>`,
    );
    expect(quill).toContain(`<img src="/media/${MEDIA}"`);
    expect(quill).toContain('<span class="badge">Featured</span>');
    expect(cardOf(page, seeded['Ink Live']!)).toContain(`<img class="logo" src="/media/${ICON}"`);
    const remote = cardOf(page, seeded['Old Remote Image']!);
    expect(remote).toMatch(/<img src="data:image\/svg\+xml,[^"]+"/);
    expect(page.html).not.toContain('tool.example');
    expect(cardOf(page, seeded['Sponsor Pen']!)).toContain('<span class="badge sponsor">Sponsored</span>');

    const chipped = await readListing(t, `/categories/${other}`);
    expect(chipped.status).toBe(200);
    expect(chipped.cards).toEqual([seeded['Quill Live']]);
    expect(chipped.html).toContain('<p class="muted">1 tool</p>');
  });

  it('answers the 404 page for an unknown or malformed slug', async () => {
    for (const path of [
      '/categories/no-such-category',
      '/categories/UPPER',
      '/categories/..%2Fetc',
      `/categories/${'a'.repeat(300)}`,
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<h1>Not found</h1>');
    }
  });

  it('pages a category by its own cursors, and refuses another list’s cursor with a 400 page', async () => {
    const big = await category('Big Category');
    const slugs = (
      await seedTools(
        t.deps.db,
        Array.from({ length: 27 }, (_, i) => ({ name: `Big ${i}`, categories: [big] })),
      )
    )
      .map((s) => s.slug)
      .reverse();
    const first = await readListing(t, `/categories/${big}`);
    expect(first.cards).toEqual(slugs.slice(0, 24));
    expect(first.next).toMatch(new RegExp(`^/categories/${big}\\?after=[A-Za-z0-9_-]+$`));
    const second = await readListing(t, first.next!);
    expect(second.cards).toEqual(slugs.slice(24));
    expect(second.canonical).toBe(`http://tooldir.test${first.next}`);
    expect(second.headPrev).toBe(second.prev);
    const back = await readListing(t, second.prev!);
    expect(back.status).toBe(302);
    expect(back.location).toBe(`/categories/${big}`);

    const cursor = first.next!.split('after=')[1]!;
    for (const path of [
      `/?after=${cursor}`,
      `/categories/${writing}?after=${cursor}`,
      `/categories/${big}?before=${cursor}&after=${cursor}`,
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(400);
      expect(await res.text()).toContain('<h1>Bad page link</h1>');
    }
  });
});

describe('hostile text and page size', () => {
  it('escapes a hostile name and description in cards and in JSON-LD', async () => {
    const name = `</script><script>alert(1)</script>"'<img src=x onerror=alert(2)>`;
    const description = `"><img src=y onerror=alert(3)><!-- & </script>`;
    const hostileCategory = await category('Hostile Cards');
    const [tool] = await seedTools(t.deps.db, [{ name, description, categories: [hostileCategory] }]);
    for (const path of ['/', `/categories/${hostileCategory}`]) {
      const page = await readListing(t, path);
      expect(page.cards[0], path).toBe(tool!.slug);
      const card = cardOf(page, tool!.slug);
      expect(card).toContain(
        '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&lt;img src=x onerror=alert(2)&gt;',
      );
      expect(card).toContain('&quot;&gt;&lt;img src=y onerror=alert(3)&gt;&lt;!-- &amp; &lt;/script&gt;');
      expect(page.html).not.toMatch(/<img src=[xy]/);
      expect(page.html).not.toContain('<script>');
      // Every script element is a JSON-LD data block, and each parses back to the exact text.
      expect(page.html.match(/<script[^>]*>/g)?.every((tag) => tag === '<script type="application/ld+json">')).toBe(
        true,
      );
      const list = page.jsonLd.find((b) => b['@type'] === 'ItemList') as {
        itemListElement: Array<{ name: string; url: string }>;
      };
      expect(list.itemListElement.find((e) => e.url === `http://tooldir.test/tools/${tool!.slug}`)?.name).toBe(name);
    }
  });

  it('renders a full page of 24 cards with long names, descriptions and chips in under 50 KB', async () => {
    const cats = [await category('Size A'), await category('Size B'), await category('Size C')];
    const long = (i: number) =>
      `${i} Extraordinarily Comprehensive Artificial Intelligence Writing And Research Assistant Für Teams`.slice(
        0,
        100,
      );
    await seedTools(
      t.deps.db,
      Array.from({ length: 28 }, (_, i) => ({
        name: long(i),
        description: 'A very long description that goes on and on about everything the tool does. '.repeat(30),
        categories: cats,
        isFeature: true,
        isSponsor: i < 3,
        icon: i % 2 ? ICON : undefined,
      })),
    );
    for (const path of ['/', `/categories/${cats[0]}`]) {
      const page = await readListing(t, path);
      expect(page.sponsored.length, path).toBe(3);
      expect(page.cards.length, path).toBe(24);
      const bytes = new TextEncoder().encode(page.html).length;
      expect(bytes, path).toBeLessThan(50_000);
      expect(bytes, path).toBeGreaterThan(20_000); // the long texts did reach the page
    }
  });
});
