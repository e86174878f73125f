// A search page comes from the database as one packed value (src/directory/search-statements.ts rankedPagesStatement) and
// is read back by position (src/directory/search.ts unpackRows). Each driver hands JSON back its own way, so the
// same checks run on PGlite and on a real PostgreSQL server through node-postgres (the Node server's driver): every
// field of a result is what the tool's detail (read as named columns) says, the cursor of the packed rows pages on
// to the end, and a corrected query still says so (the page's meta row, JSON inside the JSON).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import type { ToolSummary as Summary } from '../../../../src/directory/tool-record';
import { seedTools } from '../../../helpers/live-tools';
import { findPostgresBinaries } from '../../../helpers/services/postgres';
import { usePostgresTestApp } from '../../../helpers/services/postgres-test-app';
import { requireService } from '../../../helpers/services/require-service';
import { type TestApp, usePgliteTestApp } from '../../../helpers/test-app';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

function packedSuite(app: () => TestApp) {
  it('gives every field the detail gives, pages on by its cursor and names a correction', async () => {
    const t = app();
    const seeded = await seedTools(t.deps.db, [
      {
        name: 'Quillvane Studio',
        description: 'Drafts "quoted" notes, with a back\\slash and émigré accents.',
        categories: ['writing', 'design'],
        isFeature: true,
      },
      { name: 'Quillvane Lite', description: 'Short.', isSponsor: true },
      { name: 'Quillvane Pro', categories: ['code'] },
      { name: 'Quillvane Mini', description: 'A quillvane for small notes.' },
      { name: 'Other Tool', description: 'Works well with quillvane.' },
    ]);
    // A description absent from the metadata altogether (the seed writes it as null).
    await queryRows(t.deps.db, sql`UPDATE sites SET metadata = metadata - 'description' WHERE id = ${seeded[2]!.id}`);

    const pages: Summary[][] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request(
        `/api/v1/tools?q=quillvane&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { tools: Summary[]; next_cursor: string | null };
      pages.push(body.tools);
      cursor = body.next_cursor;
    } while (cursor && pages.length < 10);
    const found = pages.flat();
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(new Set(found.map((tool) => tool.slug))).toEqual(new Set(seeded.map((tool) => tool.slug)));
    // Names before descriptions: the tool that holds the word in its description only comes last.
    expect(found.at(-1)!.slug).toBe(seeded[4]!.slug);

    for (const tool of found) {
      const detail = (await (await t.request(`/api/v1/tools/${tool.slug}`)).json()) as Summary;
      expect(tool).toEqual({
        slug: detail.slug,
        name: detail.name,
        url: detail.url,
        description: detail.description,
        is_feature: detail.is_feature,
        is_sponsor: detail.is_sponsor,
        live_url: detail.live_url,
        categories: detail.categories,
      });
    }
    const studio = found.find((tool) => tool.slug === seeded[0]!.slug)!;
    expect(studio.description).toBe('Drafts "quoted" notes, with a back\\slash and émigré accents.');
    expect(studio.is_feature).toBe(true);
    expect(studio.categories.map((c) => c.slug)).toEqual(['design', 'writing']);
    expect(found.find((tool) => tool.slug === seeded[1]!.slug)!.is_sponsor).toBe(true);
    expect(found.find((tool) => tool.slug === seeded[2]!.slug)!.description).toBeNull();

    const corrected = (await (await t.request('/api/v1/tools?q=quilvane')).json()) as {
      tools: Summary[];
      suggestion: unknown;
    };
    expect(corrected.suggestion).toEqual({ query: 'quillvane', corrected_from: 'quilvane' });
    expect(corrected.tools.map((tool) => tool.slug)).toEqual(found.map((tool) => tool.slug));
  });
}

describe('a packed search page on PGlite', () => {
  const pglite = usePgliteTestApp();
  packedSuite(() => pglite.t);
});

describePg('a packed search page on PostgreSQL (node-postgres)', () => {
  const pg = usePostgresTestApp({ connections: 2 });
  packedSuite(() => pg.t);
});
