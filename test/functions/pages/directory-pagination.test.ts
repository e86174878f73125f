// The home page's keyset pagination (docs/pages.md): 24 cards a page, newest first, the sponsored slot on the
// first page only; following Next while tools go live reads every tool live at the start exactly once;
// Previous leads back to the same pages; a bad or forged cursor is a 400 page.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { encodeCursor } from '../../../src/directory/search-cursor';
import { seedTools } from '../../helpers/live-tools';
import { readListing, type ListingRead } from '../../helpers/listing-html';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(); // its own database: the home page lists exactly the tools seeded here
});
afterAll(() => t.close());

const hour = 3_600_000;
const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);

describe('home page pagination', () => {
  let live: string[] = [];
  let sponsors: string[] = [];
  let pending: { id: string; slug: string }[] = [];

  beforeAll(async () => {
    // 60 listed tools (one an hour, newest first), 2 sponsors, and tools not live (never listed).
    live = (
      await seedTools(
        t.deps.db,
        Array.from({ length: 60 }, (_, i) => ({
          name: `Paged Tool ${i}`,
          publishedAt: at(100 + i),
          isFeature: i % 7 === 0,
        })),
      )
    ).map((s) => s.slug);
    sponsors = (
      await seedTools(t.deps.db, [
        { name: 'Sponsor One', isSponsor: true, publishedAt: at(500) },
        { name: 'Sponsor Two', isSponsor: true, publishedAt: at(5) },
      ])
    ).map((s) => s.slug);
    pending = await seedTools(t.deps.db, [
      { name: 'Pending Later', status: 'pending_review' },
      { name: 'Queued Later', status: 'queued' },
    ]);
    await seedTools(t.deps.db, [{ name: 'Rejected Never', status: 'rejected' }]);
  });

  it('reads every tool live at the start exactly once while tools go live in between, and Previous leads back', async () => {
    const first = await readListing(t, '/');
    expect(first.status).toBe(200);
    expect(first.sponsored).toEqual([sponsors[1], sponsors[0]]); // the slot, newest first
    expect(first.cards).toEqual(live.slice(0, 24));
    expect(first.prev).toBeNull();
    expect(first.headPrev).toBeNull();
    expect(first.canonical).toBe('http://tooldir.test/');
    expect(first.html).toContain('<span class="badge">Featured</span>');

    // Tools go live between page reads: two pending ones, and freshly published ones.
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'live', published_at = now() WHERE id IN (${pending[0]!.id}::uuid, ${pending[1]!.id}::uuid)`,
    );
    const fresh = (await seedTools(t.deps.db, [{ name: 'Fresh A' }, { name: 'Fresh B' }, { name: 'Fresh C' }])).map(
      (s) => s.slug,
    );

    const pages: ListingRead[] = [first];
    for (let page = first; page.next; ) {
      expect(page.headNext).toBe(page.next); // <link rel="next"> and the visible link agree
      page = await readListing(t, page.next);
      expect(page.status).toBe(200);
      expect(page.sponsored).toEqual([]); // the slot is on the first page only
      expect(page.canonical).toBe(`http://tooldir.test${pages.at(-1)!.next}`); // self-referencing, cursor included
      expect(page.headPrev).toBe(page.prev);
      pages.push(page);
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages.map((p) => p.cards.length)).toEqual([24, 24, 12]);
    const read = pages.flatMap((p) => [...p.sponsored, ...p.cards]);
    expect(new Set(read).size).toBe(read.length); // no duplicates
    expect([...read].sort()).toEqual([...live, ...sponsors].sort()); // no gaps, nothing that went live later
    expect(pages.at(-1)!.next).toBeNull();
    expect(pages.at(-1)!.headNext).toBeNull();

    // Back from the last page: each Previous shows the very page read before it.
    let back = pages.at(-1)!;
    for (let i = pages.length - 2; i >= 1; i--) {
      back = await readListing(t, back.prev!);
      expect(back.status).toBe(200);
      expect(back.cards).toEqual(pages[i]!.cards);
      expect(back.canonical).toMatch(/^http:\/\/tooldir\.test\/\?before=[A-Za-z0-9_-]+$/);
    }
    const toFirst = await readListing(t, back.prev!);
    expect(toFirst.cards).toEqual(first.cards); // the first page as it was read, though newer tools exist now
    // Its Previous reaches the newest tools: the first page has one address, which now leads with them.
    const newest = await readListing(t, toFirst.prev!);
    expect(newest.status).toBe(302);
    expect(newest.location).toBe('/');
    const now = await readListing(t, '/');
    const arrived = [...fresh, ...pending.map((p) => p.slug)];
    expect(now.cards.slice(0, 5).sort()).toEqual([...arrived].sort());
    expect(now.cards.slice(5)).toEqual(live.slice(0, 19));
  });

  it('answers a malformed, forged or foreign cursor with a 400 page, never a 5xx', async () => {
    const apiPage = await t.request('/api/v1/tools?limit=1', { headers: { 'cf-connecting-ip': '198.51.100.7' } });
    const apiCursor = ((await apiPage.json()) as { next_cursor: string }).next_cursor;
    const someId = crypto.randomUUID();
    const forged = [
      '',
      'garbage!',
      'x'.repeat(500),
      btoa('{"v":1}'),
      apiCursor, // the API search's cursor belongs to another list
      encodeCursor('', { mode: 'newest', tier: null, publishedMicros: '1700000000000000', id: someId }),
      encodeCursor('\u0001browse\u0000', { mode: 'text', tier: 1, publishedMicros: '1700000000000000', id: someId }),
      encodeCursor('\u0001browse\u0000writing', {
        mode: 'newest',
        tier: null,
        publishedMicros: '1700000000000000',
        id: someId,
      }),
    ];
    for (const cursor of forged) {
      for (const name of ['after', 'before']) {
        const res = await t.request(`/?${name}=${encodeURIComponent(cursor)}`);
        expect(res.status, `${name}=${cursor}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('cache-control')).toBe('no-store');
        const page = await res.text();
        expect(page).toContain('<h1>Bad page link</h1>');
        expect(page).toContain('<a href="/">Go to the first page</a>');
      }
    }
    const good = (await readListing(t, '/')).next!.split('=')[1]!;
    expect((await t.request(`/?after=${good}&before=${good}`)).status).toBe(400);
  });

  it('answers a well-formed cursor past the end with an empty page that links back', async () => {
    const end = encodeCursor('\u0001browse\u0000', {
      mode: 'newest',
      tier: null,
      publishedMicros: '0',
      id: crypto.randomUUID(),
    });
    const page = await readListing(t, `/?after=${end}`);
    expect(page.status).toBe(200);
    expect(page.cards).toEqual([]);
    expect(page.next).toBeNull();
    expect(page.html).toContain('No more tools here.');
    const back = await readListing(t, page.prev!);
    expect(back.status).toBe(200);
    expect(back.cards.length).toBe(24); // the oldest 24 tools
    expect((await readListing(t, back.next!)).cards).toEqual([]); // past the oldest: the empty page again
  });
});
