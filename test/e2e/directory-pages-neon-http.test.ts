// The card pages (docs/pages.md) on real PostgreSQL through the production driver: drizzle neon-http against
// the Neon SQL-over-HTTP stand-in, where every statement is one HTTP request, so the stand-in's request count is
// the statement count of a page: one for the listing (sponsored slot and list in one UNION ALL), one for the
// category links of the home page or the category of a category page.
import { expect, it } from 'vitest';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { useNeonTestApp } from '../helpers/standins/neon-database';
import { seedTools } from '../helpers/live-tools';
import { readListing, type ListingRead } from '../helpers/listing-html';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('card pages on PostgreSQL through drizzle neon-http', () => {
  const app = useNeonTestApp();

  /** Reads a page and counts the statements it cost. */
  async function counted(
    path: string,
  ): Promise<{ page: ListingRead & { location: string | null }; statements: number }> {
    const before = app.neon.requestCount;
    const page = await readListing(app.t, path);
    return { page, statements: app.neon.requestCount - before };
  }

  // Two statements a page, and one more: the page cache reads the listing version first (here on every request,
  // as on Node; a Worker reads it at most once a second, in the background: docs/pages.md "Caching").
  const PAGE = 2 + 1;

  it('pages the home page and a category both ways at two statements a page (plus the listing version)', async () => {
    const base = Date.now() - 3_600_000;
    const tools = await seedTools(
      app.t.deps.db,
      Array.from({ length: 30 }, (_, i) => ({
        name: `Neon Card ${i}`,
        categories: ['image', 'design'],
        publishedAt: new Date(base + i * 1000),
        isFeature: i % 4 === 0,
      })),
    );
    const [sponsor] = await seedTools(app.t.deps.db, [
      { name: 'Neon Sponsor', categories: ['image'], isSponsor: true },
    ]);
    await seedTools(app.t.deps.db, [{ name: 'Neon Pending', categories: ['image'], status: 'pending_review' }]);
    const newest = tools.map((tool) => tool.slug).reverse();

    for (const basePath of ['/', '/categories/image']) {
      const first = await counted(basePath);
      expect(first.page.status, basePath).toBe(200);
      expect(first.statements, basePath).toBe(PAGE);
      expect(first.page.sponsored).toEqual([sponsor!.slug]);
      expect(first.page.cards).toEqual(newest.slice(0, 24));
      expect(first.page.html).toContain('<a href="/categories/design">Design</a>'); // categories arrive as JSON text

      const second = await counted(first.page.next!);
      expect(second.statements).toBe(PAGE);
      expect(second.page.cards).toEqual(newest.slice(24));
      expect(second.page.next).toBeNull();

      const back = await counted(second.page.prev!);
      expect(back.statements).toBe(PAGE);
      expect(back.page.status).toBe(302);
      expect(back.page.location).toBe(basePath);
    }
    const category = await readListing(app.t, '/categories/image');
    expect(category.html).toContain('<p class="muted">31 tools</p>'); // live ones only
  });
});
