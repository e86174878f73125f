// The live tools every throughput bench runs on: the search corpus with the shapes of real listings (Zipf-like
// frequent words, rare words, brand families sharing prefixes, categories; test/helpers/search-corpus.ts), so the
// reads and searches of a bench meet the same skew as production's, not an evenly spread set of names.
import type { Db } from '../../../src/db/client';
import { loadSearchCorpus, type LoadedCorpus } from '../../helpers/search-corpus-load';

/** Inserts `count` live tools from a corpus drawn afresh on each run (SEARCH_CORPUS_SEED repeats one). */
export async function seedBenchTools(db: Db, count: number): Promise<LoadedCorpus> {
  const seed = Number(process.env.SEARCH_CORPUS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  return loadSearchCorpus(db, { tools: count, seed });
}
