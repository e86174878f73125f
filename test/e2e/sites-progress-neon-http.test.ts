// History and queue position (test/functions/v1/progress-scenarios.ts) on real PostgreSQL through the
// production driver: drizzle neon-http against the Neon SQL-over-HTTP stand-in, where every statement is
// one HTTP request, so the stand-in's request count is the statement count of the detail read.
import { afterAll, beforeAll, expect } from 'vitest';
import { createNeonHttpDb } from '../../src/db/client';
import { openNodePostgres } from '../../src/db/node-clients';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from '../helpers/standins/neon-http';
import { recordingQueue } from '../helpers/stripe/payments-fixture';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { progressEnv, progressNetwork, progressScenarios } from '../functions/v1/progress-scenarios';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('submission progress on PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let t: TestApp;
  const network = progressNetwork();

  beforeAll(async () => {
    pg = await startPostgres();
    await (await openNodePostgres(pg.connectionString)).close();
    neon = await startNeonStandIn({ poolSize: 10 });
    configureNeonClient(neon);
    t = await createTestApp({
      db: { db: createNeonHttpDb(pg.connectionString, neon.fetchEndpoint), close: async () => {} },
      env: progressEnv,
      overrides: { queue: recordingQueue(), crawl: network },
    });
  });
  afterAll(async () => {
    await t?.close();
    await neon?.close();
    await pg?.close();
    expect(network.violations).toEqual([]);
  });

  progressScenarios(() => t, {
    async countStatements(run) {
      const before = neon.requestCount;
      await run();
      return neon.requestCount - before;
    },
  });
});
