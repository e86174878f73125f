// History and queue position (test/functions/v1/sites/progress-scenarios.ts) on real PostgreSQL through the
// production driver: drizzle neon-http against the Neon SQL-over-HTTP stand-in, where every statement is
// one HTTP request, so the stand-in's request count is the statement count of the detail read.
import { afterAll, beforeAll, expect } from 'vitest';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
import { recordingQueue } from '../helpers/stripe/payments-fixture';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { progressEnv, progressNetwork, progressScenarios } from '../functions/v1/sites/progress-scenarios';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('submission progress on PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let t: TestApp;
  const network = progressNetwork();

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 10 });
    ({ pg, neon } = started);
    t = await createTestApp({
      db: { db: started.db, close: async () => {} },
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
