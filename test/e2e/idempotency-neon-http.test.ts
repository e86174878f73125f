// Idempotency-Key on submit on real PostgreSQL through the production driver (drizzle neon-http against the
// Neon SQL-over-HTTP stand-in): the claim and the stored outcome are single statements, so the concurrency
// scenarios hold without interactive transactions (docs/idempotency.md).
import { afterAll, beforeAll } from 'vitest';
import { createNeonHttpDb } from '../../src/db/client';
import { openNodePostgres } from '../../src/db/node-clients';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from '../helpers/standins/neon-http';
import { createIdempotencyHarness, type IdempotencyHarness } from '../functions/v1/idempotency-harness';
import { idempotencyScenarios } from '../functions/v1/idempotency-scenarios';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('Idempotency-Key on submit, PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let h: IdempotencyHarness;

  beforeAll(async () => {
    pg = await startPostgres();
    await (await openNodePostgres(pg.connectionString)).close();
    neon = await startNeonStandIn({ poolSize: 20 });
    configureNeonClient(neon);
    h = await createIdempotencyHarness({ db: { db: createNeonHttpDb(pg.connectionString, neon.fetchEndpoint), close: async () => {} } });
  });
  afterAll(async () => {
    await h?.t.close();
    await neon?.close();
    await pg?.close();
  });

  idempotencyScenarios(() => h);
});
