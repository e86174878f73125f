// What the public-throughput bench asks for, drawn from the seeded corpus itself (so it follows whatever the seed
// writes): tool slugs by a Zipf law (a few tools get most visits), and search queries the way a site search sees
// them: most from a popular set (frequent words of names, pairs, prefixes), the rest never asked before, mostly
// words that stand together in some tool's name or description, sometimes with a typo, sometimes matching nothing.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../src/db/client';
import { rngFrom, type CorpusTool } from '../../helpers/search-corpus';
import type { LoadedCorpus } from '../../helpers/search-corpus-load';
import { drawSearch, type SearchKind } from '../../helpers/search-corpus-queries';

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
  /** A query never asked before in this run: 70 % words of one tool, 20 % the same with a typo, 10 % words of names that no tool has together. */
  freshQuery(): string;
  /**
   * A query of `kind` (test/helpers/search-corpus-queries.ts) no request of the run asked before: the kind's draws are
   * few (a few hundred common words), so a draw asked before comes back spelled otherwise (letters in other cases, a
   * mark after it), which the search reads as the same words and the page cache as a new query.
   */
  freshOf(kind: SearchKind): string;
  popularQueries: string[];
}

/** The n-th spelling of `query`: its letters' cases from n's bits, then a mark from what is left. */
export function spelling(query: string, n: number): string {
  const marks = ['', '!', '?', '.', ',', ';', '…'];
  let bits = n;
  let out = '';
  for (const char of query) {
    if (/[a-z]/.test(char)) {
      out += bits & 1 ? char.toUpperCase() : char;
      bits >>= 1;
    } else out += char;
  }
  return (
    out +
    (marks[bits % marks.length] ?? '') +
    (bits >= marks.length ? ` ${'!'.repeat(Math.floor(bits / marks.length))}` : '')
  );
}

const WORD = /^[a-z]{3,}$/;

/** Reads the live tools' names and builds the traffic. */
export async function publicTraffic(
  db: Db,
  options: { popularQueries?: number; popularShare?: number; corpus?: LoadedCorpus } = {},
): Promise<PublicTraffic> {
  const rows = await queryRows<{ slug: string; name: string; description: string | null }>(
    db,
    sql`SELECT slug, name, metadata->>'description' AS description FROM sites WHERE status = 'live'`,
  );
  const slugs = shuffled(rows.map((r) => r.slug));
  const nameWords = rows.map((r) =>
    r.name
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => WORD.test(w)),
  );
  const counts = new Map<string, number>();
  for (const words of nameWords) for (const w of new Set(words)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const byFrequency = [...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  // The popular set: frequent words, pairs of words that stand together in a name, and prefixes of frequent words.
  const pairs = new Set<string>();
  for (const words of nameWords) for (let i = 0; i + 1 < words.length; i++) pairs.add(`${words[i]} ${words[i + 1]}`);
  const prefixes = byFrequency.filter((w) => w.length >= 6).map((w) => w.slice(0, Math.ceil(w.length * 0.6)));
  const size = options.popularQueries ?? 300;
  const popular = shuffled([
    ...new Set([
      ...byFrequency.slice(0, size / 3),
      ...shuffled([...pairs]).slice(0, size / 3),
      ...prefixes.slice(0, size / 3),
    ]),
  ]);
  const pickPopular = zipf(popular.length);
  // Fresh queries, each handed out once.
  const vocabulary = byFrequency.slice(0, 200);
  const texts = rows.map((r) =>
    `${r.name} ${r.description ?? ''}`
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => WORD.test(w)),
  );
  const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)]!;
  const typo = (word: string) => {
    if (word.length < 5) return word;
    const i = 1 + Math.floor(Math.random() * (word.length - 2));
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  };
  const candidate = (): string => {
    const roll = Math.random();
    if (roll < 0.1) return [0, 1, 2].map(() => pick(vocabulary)).join(' ');
    const words = pick(texts);
    const chosen = [pick(words), ...(Math.random() < 0.5 ? [pick(words)] : [])];
    if (roll < 0.3) chosen[0] = typo(chosen[0]!);
    return chosen.join(' ');
  };
  const used = new Set(popular);
  const freshQuery = () => {
    for (;;) {
      const q = candidate();
      if (!used.has(q)) {
        used.add(q);
        return q;
      }
    }
  };
  const rng = rngFrom(Math.floor(Math.random() * 2 ** 31));
  const spellings = new Map<string, number>();
  // Tool i is the same every time it is made: kept once made, so a draw that tries a few tools (a name with its
  // number) costs the load generator ~1 µs, not the ~90 µs of making them again on the cores the server shares.
  const made = new Map<number, CorpusTool>();
  const tool = (index: number) => {
    const known = made.get(index);
    if (known) return known;
    const fresh = options.corpus!.tool(index);
    made.set(index, fresh);
    return fresh;
  };
  const freshOf = (kind: SearchKind) => {
    if (!options.corpus) throw new Error('freshOf needs the corpus the tools were seeded from');
    const drawn = drawSearch(rng, options.corpus.vocabulary, tool, kind).query;
    for (;;) {
      const n = spellings.get(drawn) ?? 0;
      spellings.set(drawn, n + 1);
      const q = spelling(drawn, n);
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
    freshOf,
    popularQueries: popular,
  };
}
