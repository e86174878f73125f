import type { SiteStatus } from '../../src/catalog/site-statuses';
import { accounts, siteCategories, sites } from '../../src/db/schema';
import type { Db } from '../../src/db/client';

/** What a test says about a tool; everything else gets a unique, valid default. */
export interface ToolSeed {
  name: string;
  description?: string;
  status?: SiteStatus;
  slug?: string;
  isFeature?: boolean;
  isSponsor?: boolean;
  publishedAt?: Date;
  image?: string;
  icon?: string;
  /** Category slugs (they must exist: the starter set or ones a test created). */
  categories?: string[];
}

export interface SeededTool {
  id: string;
  name: string;
  slug: string;
  url: string;
}

let counter = 0;

/** Seeds sites as the pipeline leaves them (metadata, slug, live_url, published_at), live unless told otherwise. */
export async function seedTools(db: Db, seeds: ToolSeed[], origin = 'http://tooldir.test'): Promise<SeededTool[]> {
  const [owner] = await db
    .insert(accounts)
    .values({ email: `seed-${crypto.randomUUID()}@example.com` })
    .returning({ id: accounts.id });
  const base = Date.now();
  const rows = seeds.map((seed, i) => {
    const n = ++counter;
    const unique = `${n}-${crypto.randomUUID().slice(0, 8)}`;
    const status = seed.status ?? 'live';
    const slug =
      seed.slug ??
      `${seed.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')}-${unique}`;
    const url = `https://tool-${unique}.example`;
    return {
      id: crypto.randomUUID(),
      accountId: owner!.id,
      name: seed.name,
      url,
      canonicalUrl: url,
      normalizedName: `${seed.name.toLowerCase()} ${unique}`,
      status,
      via: 'payment' as const,
      plan: 'basic',
      isFeature: seed.isFeature ?? false,
      isSponsor: seed.isSponsor ?? false,
      metadata: {
        title: seed.name,
        description: seed.description ?? null,
        image: seed.image ?? null,
        icon: seed.icon ?? null,
      },
      slug,
      liveUrl: status === 'live' ? `${origin}/tools/${slug}` : null,
      publishedAt: status === 'live' ? (seed.publishedAt ?? new Date(base - (seeds.length - i) * 1000)) : null,
    };
  });
  if (rows.length) await db.insert(sites).values(rows);
  const links = seeds.flatMap((seed, i) =>
    (seed.categories ?? []).map((categorySlug) => ({ siteId: rows[i]!.id, categorySlug })),
  );
  if (links.length) await db.insert(siteCategories).values(links);
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, url: r.url }));
}
