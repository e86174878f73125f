// Loads a generated search corpus (test/helpers/search-corpus.ts) into a database as live tools, in batches of
// one set-based statement each (seedTools would take far too long at a million tools).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client';
import { corpusTools, corpusVocabulary, publishedAt, type CorpusTool, type CorpusVocabulary } from './search-corpus';

const BATCH = 5_000;

export interface LoadedCorpus {
  vocabulary: CorpusVocabulary;
  tool: (index: number) => CorpusTool;
  /** The slug tool `index` was given. */
  slugOf: (index: number) => string;
  seconds: number;
}

/** Inserts `tools` live tools (the newest published now) and vacuums, as autovacuum would soon after. */
export async function loadSearchCorpus(
  db: Db,
  options: { tools: number; seed: number; progress?: (done: number) => void },
): Promise<LoadedCorpus> {
  const started = performance.now();
  const vocabulary = corpusVocabulary(options.seed, options.tools);
  const tool = corpusTools(vocabulary);
  const run = crypto.randomUUID().slice(0, 8);
  const newest = new Date();
  const [owner] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO accounts (email) VALUES (${`corpus-${run}@example.com`}) RETURNING id`,
  );
  for (let from = 0; from < options.tools; from += BATCH) {
    const rows = [];
    for (let i = from; i < Math.min(options.tools, from + BATCH); i++) {
      const t = tool(i);
      rows.push({
        i,
        name: t.name,
        description: t.description,
        categories: t.categories,
        published_at: publishedAt(newest, i).toISOString(),
      });
    }
    await queryRows(
      db,
      sql`WITH input AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(i int, name text, description text, categories text[], published_at timestamptz)
        ), inserted AS (
          INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, metadata, slug, live_url, published_at)
          SELECT gen_random_uuid(), ${owner!.id}, name, 'https://corpus-' || ${run} || '-' || i || '.example', 'https://corpus-' || ${run} || '-' || i || '.example/',
            lower(name) || ' ' || ${run} || '-' || i, 'live', 'payment', 'basic', jsonb_build_object('title', name, 'description', description),
            'corpus-' || ${run} || '-' || i, 'https://tooldir.example/tools/corpus-' || ${run} || '-' || i, published_at
          FROM input
          RETURNING id, slug
        )
        INSERT INTO site_categories (site_id, category_slug)
        SELECT inserted.id, c.slug FROM inserted JOIN input ON inserted.slug = 'corpus-' || ${run} || '-' || input.i CROSS JOIN LATERAL unnest(input.categories) AS c(slug)`,
    );
    options.progress?.(Math.min(options.tools, from + BATCH));
  }
  // What autovacuum does soon after a bulk insert (sites vacuums after 1% of its rows change): it sets the
  // visibility map that index-only scans need, and gives the planner statistics.
  await queryRows(db, sql`VACUUM (ANALYZE) sites, site_categories, search_words`);
  // Write the load's dirty pages out now, not in a checkpoint during the timed rounds (superuser only; where it
  // is refused, the rounds may meet that checkpoint).
  await queryRows(db, sql`CHECKPOINT`).catch(() => undefined);
  return {
    vocabulary,
    tool,
    slugOf: (index) => `corpus-${run}-${index}`,
    seconds: (performance.now() - started) / 1000,
  };
}
