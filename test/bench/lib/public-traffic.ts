// What the public-throughput bench asks for, drawn from the seeded corpus itself (so it follows whatever the seed
// writes): tool slugs by a Zipf law (a few tools get most visits), and search queries the way a site search sees
// them: most from a popular set (frequent words of names, pairs, prefixes), the rest never asked before.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../src/db/client';

/** Ranks 0..n-1 with P(rank k) ∝ 1/(k+1)^s, by inverting the cumulative weights (binary search). */
export function zipf(n: number, s = 1, random: () => number = Math.random): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / Math.pow(k + 1, s);
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const shuffled = <T>(values: T[]): T[] => {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

export interface PublicTraffic {
  slugs: string[];
  /** A tool slug, Zipf over the tools in random order (which tools are popular changes every run). */
  slug(): string;
  /** A search query: `popularShare` of them from the popular set (Zipf), the rest never asked before in this run. */
  query(): string;
  /** A query never asked before in this run (a new pair or triple of words of names). */
  freshQuery(): string;
  popularQueries: string[];
}

const WORD = /^[a-z]{3,}$/;

/** Reads the live tools' names and builds the traffic. */
export async function publicTraffic(db: Db, options: { popularQueries?: number; popularShare?: number } = {}): Promise<PublicTraffic> {
  const rows = await queryRows<{ slug: string; name: string }>(db, sql`SELECT slug, name FROM sites WHERE status = 'live'`);
  const slugs = shuffled(rows.map((r) => r.slug));
  const nameWords = rows.map((r) => r.name.toLowerCase().split(/\s+/).filter((w) => WORD.test(w)));
  const counts = new Map<string, number>();
  for (const words of nameWords) for (const w of new Set(words)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const byFrequency = [...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  // The popular set: frequent words, pairs of words that stand together in a name, and prefixes of frequent words.
  const pairs = new Set<string>();
  for (const words of nameWords) for (let i = 0; i + 1 < words.length; i++) pairs.add(`${words[i]} ${words[i + 1]}`);
  const prefixes = byFrequency.filter((w) => w.length >= 6).map((w) => w.slice(0, Math.ceil(w.length * 0.6)));
  const size = options.popularQueries ?? 300;
  const popular = shuffled([...new Set([...byFrequency.slice(0, size / 3), ...shuffled([...pairs]).slice(0, size / 3), ...prefixes.slice(0, size / 3)])]);
  const pickPopular = zipf(popular.length);
  // Fresh queries: triples of words of names in random order, each handed out once.
  const vocabulary = byFrequency.slice(0, 200);
  const used = new Set(popular);
  const freshQuery = () => {
    for (;;) {
      const q = [0, 1, 2].map(() => vocabulary[Math.floor(Math.random() * vocabulary.length)]!).join(' ');
      if (!used.has(q)) {
        used.add(q);
        return q;
      }
    }
  };
  const pickSlug = zipf(slugs.length);
  const share = options.popularShare ?? 0.8;
  return {
    slugs,
    slug: () => slugs[pickSlug()]!,
    query: () => (Math.random() < share ? popular[pickPopular()]! : freshQuery()),
    freshQuery,
    popularQueries: popular,
  };
}
