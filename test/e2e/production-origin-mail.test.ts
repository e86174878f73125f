// The Node entry outside local mode (real PostgreSQL): SITE_ORIGIN is the only origin it calls its own, whatever
// Host a request carries, and mail goes to the configured mail API (a loopback stand-in), never to the outbox.
// An explicit MAIL_TRANSPORT=outbox starts, with a warning that it is not for production.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../functions/node';
import type { Env } from '../../src/config';
import { queryRows } from '../../src/db/client';
import { createLogger } from '../../src/log';
import { requestWithHost } from '../helpers/raw-host-request';
import { findFreePort } from '../helpers/services/free-port';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { type MailStandIn, startMailStandIn } from '../helpers/standins/mail-api';
import { signQStash } from '../helpers/standins/qstash-signer';
import { recordingQueue } from '../helpers/stripe/payments-fixture';

const describePostgres = requireService('PostgreSQL', findPostgresBinaries() !== null);
const ADMIN = 'production-origin-admin-0123456789';
const CURRENT = 'sig_current_prod_0123456789abcdef';

describePostgres('Node entry outside local mode', () => {
  let pg: PostgresServer;
  let mail: MailStandIn;
  let server: NodeServer;
  let origin: string;
  const env = async (extra: Env = {}): Promise<Env> => {
    const port = await findFreePort();
    return {
      DATABASE_URL: pg.connectionString,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_ORIGIN: `http://127.0.0.1:${port}`,
      ADMIN_TOKEN: ADMIN,
      STRIPE_WEBHOOK_SECRET: 'whsec_production_origin_0000',
      LOCAL_PAYMENTS: 'true',
      QSTASH_CURRENT_SIGNING_KEY: CURRENT,
      QSTASH_NEXT_SIGNING_KEY: 'sig_next_prod_0123456789abcdef',
      LOG_LEVEL: 'silent',
      ...extra,
    };
  };

  beforeAll(async () => {
    pg = await startPostgres();
    mail = await startMailStandIn();
    const configured = await env(mail.env);
    origin = configured.SITE_ORIGIN!;
    server = await startNodeServer(configured, { overrides: { queue: recordingQueue() }, localSweeper: false });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await mail?.close();
    await pg?.close();
  });

  const send = (path: string, init: Parameters<typeof requestWithHost>[2]) => requestWithHost(server.url, path, init);
  const evilHost = () => `evil.test:${server.port}`;

  it('mails a sign-in code through the mail API and stores nothing in mail_outbox', async () => {
    expect(server.url).toBe(origin);
    const page = await fetch(`${origin}/account/sign-in`);
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const email = `prod-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await fetch(`${origin}/account/sign-in`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email }),
    });
    expect(res.status).toBe(200);
    const sent = await mail.waitFor((m) => m.to === email);
    expect(sent.text).toMatch(/\b\d{6}\b/);
    const [outbox] = await queryRows<{ n: number }>(server.deps.db, sql`SELECT count(*)::int AS n FROM mail_outbox`);
    expect(outbox!.n).toBe(0);
  });

  it('verifies QStash deliveries against SITE_ORIGIN: a token for evil.test sent with Host: evil.test is refused', async () => {
    const deliver = (signedFor: string) =>
      send('/api/jobs/sweep', {
        host: evilHost(),
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'upstash-signature': signQStash({ body: '{}', url: `${signedFor}/api/jobs/sweep`, key: CURRENT }),
        },
        body: '{}',
      });
    expect((await deliver(`http://${evilHost()}`)).status).toBe(401);
    expect((await deliver(origin)).status).toBe(200);
  });

  it('refuses MCP with Host and Origin both naming evil.test, and links a 402 to SITE_ORIGIN', async () => {
    const mcp = await send('/api/mcp/mcp', {
      host: evilHost(),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: `http://${evilHost()}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    });
    expect(mcp.status).toBe(403);
    expect(mcp.text).toContain(`Forbidden: Host ${evilHost()} is not this server.`);
    const operator = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const created = await fetch(`${origin}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ email: `payer-${crypto.randomUUID().slice(0, 8)}@example.com` }),
    });
    expect(created.status).toBe(201);
    const { account_id } = (await created.json()) as { account_id: string };
    const keyed = await fetch(`${origin}/api/v1/admin/accounts/${account_id}/keys`, {
      method: 'POST',
      headers: operator,
      body: '{}',
    });
    expect(keyed.status, await keyed.clone().text()).toBe(201);
    const { key } = (await keyed.json()) as { key: string };
    const submitted = await send('/api/v1/submit-site', {
      host: evilHost(),
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Production Host Tool',
        url: `https://prod-host-${crypto.randomUUID().slice(0, 8)}.example`,
      }),
    });
    expect(submitted.status).toBe(402);
    expect(
      (JSON.parse(submitted.text) as { checkout_url: string }).checkout_url.startsWith(`${origin}/checkout/cs_local_`),
    ).toBe(true);
  });

  it('starts with an explicit MAIL_TRANSPORT=outbox and warns that mail is not delivered', async () => {
    const lines: string[] = [];
    const outbox = await startNodeServer(await env({ MAIL_TRANSPORT: 'outbox' }), {
      overrides: { queue: recordingQueue(), log: createLogger('warn', (line) => lines.push(line)) },
      localSweeper: false,
    });
    try {
      expect(outbox.deps.mail.kind).toBe('outbox');
      expect(lines.map((l) => JSON.parse(l) as { level: string; msg: string })).toContainEqual({
        level: 'warn',
        time: expect.any(String),
        msg: expect.stringMatching(/^MAIL_TRANSPORT=outbox: mail is never delivered.*not for production/),
      });
    } finally {
      await outbox.close();
    }
  });
});
