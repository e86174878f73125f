import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { createTestApp, WEBHOOK_SECRET, type TestApp } from '../../helpers/test-app';
import { buildStripeEvent } from '../../helpers/standins/stripe-signature';
import { eventFixture, signFixture } from '../../helpers/stripe/stripe-fixtures';
import {
  eventId,
  paidSession,
  pendingRow,
  postEvent,
  recordingPayments,
  recordingQueue,
  siteRow,
  submitUnpaid,
} from '../../helpers/stripe/payments-fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { payments: recordingPayments(), queue: recordingQueue() } });
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);

/** One header with a v1 signature per secret (as while a secret is rolled), each made by stripe-node's helper. */
function signWithSecrets(payload: string, secrets: readonly string[], timestamp = now()): string {
  const v1 = secrets.map((secret) =>
    signFixture(payload, secret, timestamp)
      .split(',')
      .find((part) => part.startsWith('v1=')),
  );
  return [`t=${timestamp}`, ...v1].join(',');
}

async function paidEventFor() {
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key);
  const id = eventId();
  return { p, id, body: eventFixture('checkout.session.completed', paidSession(p), { id }) };
}

async function expectRejected(res: Response, siteId: string) {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
  expect(await siteRow(t, siteId)).toBeUndefined();
  expect((await pendingRow(t, siteId))?.state).toBe('open');
  expect(await queryRows(t.deps.db, sql`SELECT 1 FROM stripe_events WHERE summary LIKE ${`%${siteId}%`}`)).toEqual([]);
}

describe('POST /api/webhooks/stripe signature', () => {
  it('accepts a valid signature and applies the event', async () => {
    const { p, body } = await paidEventFor();
    const res = await postEvent(t, body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await siteRow(t, p.siteId))?.status).toBe('queued');
  });

  it('rejects a body with one changed character', async () => {
    const { p, body } = await paidEventFor();
    const signature = signFixture(body, WEBHOOK_SECRET);
    const tampered = body.replace('"pending_webhooks":1', '"pending_webhooks":2');
    expect(tampered).not.toBe(body);
    await expectRejected(await postEvent(t, tampered, signature), p.siteId);
  });

  it('rejects exactly one flipped byte in the payload', async () => {
    const { p, body } = await paidEventFor();
    const signature = signFixture(body, WEBHOOK_SECRET);
    const at = body.indexOf('"type"') + 1;
    const flipped = body.slice(0, at) + String.fromCharCode(body.charCodeAt(at) ^ 1) + body.slice(at + 1);
    await expectRejected(await postEvent(t, flipped, signature), p.siteId);
  });

  it('rejects a signature made with another secret', async () => {
    const { p, body } = await paidEventFor();
    await expectRejected(await postEvent(t, body, signFixture(body, 'whsec_someone_else')), p.siteId);
  });

  it('rejects a request without Stripe-Signature', async () => {
    const { p, body } = await paidEventFor();
    const res = await t.request('/api/webhooks/stripe', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    await expectRejected(res, p.siteId);
  });

  it('rejects a timestamp 301 s old, accepts one 299 s old', async () => {
    const { p, body } = await paidEventFor();
    await expectRejected(await postEvent(t, body, signFixture(body, WEBHOOK_SECRET, now() - 301)), p.siteId);
    const res = await postEvent(t, body, signFixture(body, WEBHOOK_SECRET, now() - 299));
    expect(res.status).toBe(200);
  });

  it('accepts a header with two v1 signatures while the secret is rolled', async () => {
    const { p, body } = await paidEventFor();
    const res = await postEvent(t, body, signWithSecrets(body, ['whsec_the_old_secret', WEBHOOK_SECRET]));
    expect(res.status).toBe(200);
    expect((await siteRow(t, p.siteId))?.status).toBe('queued');
  });

  it('rejects a garbage header', async () => {
    const { p, body } = await paidEventFor();
    await expectRejected(await postEvent(t, body, 'not-a-signature'), p.siteId);
  });

  it('answers 200 for a verified event of an irrelevant type and records nothing', async () => {
    const id = eventId();
    const res = await postEvent(t, buildStripeEvent('charge.refunded', { id: 'ch_1', object: 'charge' }, { id }));
    expect(res.status).toBe(200);
    expect(await queryRows(t.deps.db, sql`SELECT 1 FROM stripe_events WHERE id = ${id}`)).toEqual([]);
  });

  it('refuses a body over 1 MiB with 413 in the error shape', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) });
    const res = await postEvent(t, body);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('only accepts POST (405 with Allow)', async () => {
    const res = await t.request('/api/webhooks/stripe');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({
      error: { code: 'method_not_allowed', message: expect.stringMatching(/is not allowed on/) },
    });
  });
});

describe('regression: the full app with every global middleware still verifies the raw bytes', () => {
  it('verifies a pretty-printed, non-ASCII body whose re-serialisation would differ', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key, { name: `Ünïcode ✓ ${crypto.randomUUID().slice(0, 6)}` });
    const event = JSON.parse(eventFixture('checkout.session.completed', paidSession(p), { id: eventId() })) as object;
    // Whitespace and escapes a JSON parser would normalise away: a middleware that parsed and re-serialised the
    // body (or read it as JSON first) would break the signature.
    const body = JSON.stringify(event, null, 2).replace('"livemode": false', '"livemode" :  false') + '\n';
    const res = await t.app.request('http://tooldir.test/api/webhooks/stripe', {
      method: 'POST',
      body,
      headers: {
        'stripe-signature': signFixture(body, WEBHOOK_SECRET),
        'content-type': 'application/json; charset=utf-8',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy(); // the global request-context middleware ran
    expect((await siteRow(t, p.siteId))?.status).toBe('queued');
  });
});
