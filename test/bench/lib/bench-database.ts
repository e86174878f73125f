// The database a benchmark runs on: a throwaway real PostgreSQL when installed, else PGlite with a note.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DATABASE_POOL_MAX, type Env } from '../../../src/config';
import { findPostgresBinaries, startPostgres, type PostgresServer } from '../../helpers/services/postgres';

export interface BenchDatabase {
  kind: 'postgresql' | 'pglite';
  /**
   * DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite) for the server's environment. On PostgreSQL also
   * MAIL_TRANSPORT=outbox: outside local mode mail must be chosen explicitly, and benches send none that matters.
   */
  env: Env;
  server?: PostgresServer;
  note?: string;
  close(): Promise<void>;
}

/** Starts PostgreSQL on loopback; falls back to PGlite in a temp DATA_DIR (and says so) when it is missing. */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  if (findPostgresBinaries()) {
    const server = await startPostgres({ database: 'tooldir_bench' });
    return {
      kind: 'postgresql',
      env: { DATABASE_URL: server.connectionString, MAIL_TRANSPORT: 'outbox' },
      server,
      close: () => server.close(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-bench-'));
  return {
    kind: 'pglite',
    env: { DATA_DIR: dir },
    note: 'PostgreSQL is not installed (apt-get install postgresql): these numbers are on embedded PGlite, not comparable',
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The pool the bench server keeps to PostgreSQL (it reads DATABASE_POOL_MAX from the environment the bench passes on),
 * so a floor compared with it can keep the same and the notes say what ran.
 */
export function benchPoolMax(): number {
  return Number(process.env.DATABASE_POOL_MAX ?? DEFAULT_DATABASE_POOL_MAX);
}
