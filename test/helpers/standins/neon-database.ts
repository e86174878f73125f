// Real PostgreSQL behind the Neon SQL-over-HTTP stand-in, the way production reaches Neon: the server is
// started and migrated like `npm run db:migrate` (node-postgres), then the app's Db is drizzle neon-http
// through the stand-in. One place for the setup every "…-neon-http" suite shares.
import { createNeonHttpDb, type Db } from '../../../src/db/client';
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
