// Real PostgreSQL behind the Neon SQL-over-HTTP stand-in, the way production reaches Neon: the server is
// started and migrated like `npm run db:migrate` (node-postgres), then the app's Db is drizzle neon-http
// through the stand-in. One place for the setup every "…-neon-http" suite shares.
import { afterAll, beforeAll } from 'vitest';
import { createNeonHttpDb, type Db } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../test-app';
import { openNodePostgres } from '../../../src/db/node-clients';
import { startPostgres, type PostgresServer } from '../services/postgres';
import { configureNeonClient, startNeonStandIn, type NeonStandIn } from './neon-http';

export interface NeonDatabase {
  pg: PostgresServer;
  neon: NeonStandIn;
  /** drizzle neon-http through the stand-in: pass as createTestApp({ db: { db, close } }). */
  db: Db;
}

export async function startNeonDatabase(options: { poolSize?: number } = {}): Promise<NeonDatabase> {
  const pg = await startPostgres();
  await (await openNodePostgres(pg.connectionString)).close();
  const neon = await startNeonStandIn({ poolSize: options.poolSize ?? 20 });
  configureNeonClient(neon);
  return { pg, neon, db: createNeonHttpDb(pg.connectionString, neon.fetchEndpoint) };
}

/**
 * Registers, in the calling describe block, a test app on PostgreSQL through drizzle neon-http and the stand-in
 * (the queue records nothing), and closes it afterwards. Read its parts through the returned getters.
 */
export function useNeonTestApp(options: { poolSize?: number } = {}): {
  readonly t: TestApp;
  readonly neon: NeonStandIn;
  readonly pg: PostgresServer;
} {
  let started: NeonDatabase | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    started = await startNeonDatabase({ poolSize: options.poolSize ?? 5 });
    app = await createTestApp({
      db: { db: started.db, close: async () => {} },
      overrides: { queue: { kind: 'local', enqueue: async () => {} } },
    });
  });
  afterAll(async () => {
    await app?.close();
    await started?.neon.close();
    await started?.pg.close();
  });
  return {
    get t() {
      return app!;
    },
    get neon() {
      return started!.neon;
    },
    get pg() {
      return started!.pg;
    },
  };
}
