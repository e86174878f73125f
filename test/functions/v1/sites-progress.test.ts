// History and queue position of GET /api/v1/sites/{site_id}, MCP get_site_status and /account on PGlite
// (the cases: progress-scenarios.ts; the same run on PostgreSQL in test/e2e/sites-progress-neon-http.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  t = await createTestApp({
    env: progressEnv,
    overrides: { queue: recordingQueue(), crawl: network, log: createLogger('error') },
  });
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

describe('openapi.json documents them (derived from src/submissions/record-schemas.ts)', () => {
  it('the detail read answers SiteDetail (history required, queue optional); the list says it has neither', async () => {
    const doc = await (await t.request('/api/v1/openapi.json')).json();
    const ok = doc.paths['/api/v1/sites/{site_id}'].get.responses['200'].content['application/json'].schema;
    expect(ok.anyOf).toContainEqual({ $ref: '#/components/schemas/SiteDetail' });
    const detail = doc.components.schemas.SiteDetail;
    expect(detail.required).toContain('history');
    expect(detail.required).not.toContain('queue');
    expect(detail.properties.history.items).toEqual({ $ref: '#/components/schemas/HistoryStep' });
    expect(detail.properties.queue.properties.stage.enum).toEqual(['crawl', 'review']);
    expect(doc.components.schemas.HistoryStep.required).toEqual(['status', 'at']);
    const stepStatus = JSON.stringify(doc.components.schemas.HistoryStep.properties.status);
    for (const status of [
      'pending_payment',
      'queued',
      'crawling',
      'pending_review',
      'live',
      'rejected',
      'crawl_failed',
    ])
      expect(stepStatus).toContain(`"${status}"`);
    // The list's items stay SiteRecord, and both the list and its operation say where history lives.
    expect(doc.components.schemas.SiteRecord.properties).not.toHaveProperty('history');
    expect(doc.components.schemas.SiteList.properties.sites.description).toMatch(/without history and queue position/);
    expect(doc.paths['/api/v1/sites'].get.description).toMatch(/no history or queue position/);
  });
});
