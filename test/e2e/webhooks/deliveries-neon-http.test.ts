// The delivery scenarios on real PostgreSQL through the production driver (drizzle neon-http against the Neon
// SQL-over-HTTP stand-in): the outbox trigger, the one-statement lease and the attempt log hold without
// interactive transactions; the cap of 5 holds under concurrent creates.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNeonHttpDb } from '../../../src/db/client';
import { openNodePostgres } from '../../../src/db/node-clients';
import type { FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../../helpers/services/postgres';
import { requireService } from '../../helpers/services/require-service';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from '../../helpers/standins/neon-http';
import { loopbackOnlyWebhookTransport } from '../../helpers/webhook-receiver';
import { redirectsNotFollowed, startToolSite, testPing, transitionsWithRetries } from './delivery-scenarios';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('webhook deliveries on PostgreSQL through drizzle neon-http', () => {
  const transport = loopbackOnlyWebhookTransport();
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let t: PipelineApp;
  let fixture: FixtureSite;

  beforeAll(async () => {
    pg = await startPostgres({ database: 'tooldir_webhooks' });
    await (await openNodePostgres(pg.connectionString)).close();
    neon = await startNeonStandIn({ poolSize: 10 });
    configureNeonClient(neon);
    const db = createNeonHttpDb(pg.connectionString, neon.fetchEndpoint);
    t = await createPipelineApp({
      db: { db, close: async () => {} },
      env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
      overrides: { webhooks: transport },
    });
    fixture = await startToolSite();
  });
  afterAll(async () => {
    await t?.close();
    await fixture?.close();
    await neon?.close();
    await pg?.close();
    expect(transport.violations).toEqual([]);
    expect(networkViolations).toEqual([]);
  });

  it('every transition to live arrives signed; 500, 500, 200 is three attempts and one success', async () => {
    const before = neon.requestCount;
    await transitionsWithRetries({ t, fixture });
    expect(neon.requestCount).toBeGreaterThan(before);
  });
  it('redirects are not followed', () => redirectsNotFollowed({ t, fixture }));
  it('a test ping arrives once, signed, and is logged', () => testPing({ t, fixture }));

  it('8 concurrent creates on one account: exactly 5 endpoints', async () => {
    const m = await t.member('member');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.request('/api/v1/webhooks', { method: 'POST', key: m.key, json: { url: `http://127.0.0.1:9/${i}` } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    expect((await (await t.request('/api/v1/webhooks', { key: m.key })).json()).data).toHaveLength(5);
  });
});
