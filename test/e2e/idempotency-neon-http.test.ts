// Idempotency-Key on submit on real PostgreSQL through the production driver (drizzle neon-http against the
// Neon SQL-over-HTTP stand-in): the claim and the stored outcome are single statements, so the concurrency
// scenarios hold without interactive transactions (docs/idempotency.md).
import { afterAll, beforeAll } from 'vitest';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
import { createIdempotencyHarness, type IdempotencyHarness } from '../functions/v1/idempotency-harness';
import { idempotencyScenarios } from '../functions/v1/idempotency-scenarios';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('Idempotency-Key on submit, PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let h: IdempotencyHarness;

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 20 });
    ({ pg, neon } = started);
    h = await createIdempotencyHarness({ db: { db: started.db, close: async () => {} } });
  });
  afterAll(async () => {
    await h?.t.close();
    await neon?.close();
    await pg?.close();
  });

  idempotencyScenarios(() => h);
});
