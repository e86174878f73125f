import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client';
import type { SiteStatus } from '../../src/catalog/site-statuses';
import { normalizeName } from '../../src/submissions/name';

/**
 * A tool owned by a given account (e.g. a TestApp member with an API key), as the pipeline leaves it:
 * metadata with a description, a slug and, when live, its live_url. For tests of what a submitter does
 * with their own tool (edits, docs/pipeline.md "Edits").
 */
export async function seedOwnedTool(
  db: Db,
  accountId: string,
  seed: { name: string; description?: string; status?: SiteStatus },
): Promise<{ id: string; slug: string }> {
  const id = crypto.randomUUID();
  const slug = `owned-${id.slice(0, 8)}`;
  const url = `https://${slug}.example/`;
  const status = seed.status ?? 'live';
  const metadata = {
    title: seed.name,
    description: seed.description ?? 'The original description.',
    image: null,
    icon: null,
  };
  await queryRows(
    db,
    sql`INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, metadata, slug, live_url, published_at)
        VALUES (${id}::uuid, ${accountId}::uuid, ${seed.name}, ${url}, ${url}, ${normalizeName(seed.name)}, ${status}, 'membership', 'basic',
          ${JSON.stringify(metadata)}::jsonb, ${slug}, ${status === 'live' ? `http://tooldir.test/tools/${slug}` : null},
          ${status === 'live' ? new Date().toISOString() : null}::timestamptz)`,
  );
  return { id, slug };
}
