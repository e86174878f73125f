// History and queue position of GET /api/v1/sites/{site_id}, MCP get_site_status and /account on PGlite
// (the cases: progress-scenarios.ts; the same run on PostgreSQL in test/e2e/sites-progress-neon-http.test.ts).
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { counts, countDatabaseStatements, resetCounts } from '../../bench/lib/instrument';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { createLogger } from '../../../src/log';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { progressEnv, progressNetwork, progressScenarios } from './progress-scenarios';

// Counts PGlite#query/#exec calls, process-wide: this file's worker runs nothing else.
countDatabaseStatements();

const network = progressNetwork();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: progressEnv, overrides: { queue: recordingQueue(), crawl: network, log: createLogger('error') } });
});
afterAll(async () => {
  await t?.close();
  expect(network.violations).toEqual([]);
});

describe('submission progress on PGlite', () => {
  progressScenarios(() => t, {
    async countStatements(run) {
      resetCounts();
      await run();
      return counts.statements;
    },
  });
});
