// The Stripe webhook's per-IP limit counts only refused deliveries (missing or wrong signatures): past it, a refusal
// is a 429 instead of a 400, while a correctly signed event from the very same address is applied, however many
// arrive (Stripe delivers from shared addresses, and a dropped event would be a payment never applied).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitPolicies } from '../../../src/rate-limits/policies';
import { buildStripeEvent, signStripeEvent } from '../../helpers/standins/stripe-signature';
import { eventFixture, signFixture } from '../../helpers/stripe/stripe-fixtures';
import {
  eventId,
  paidSession,
  recordingPayments,
  recordingQueue,
  siteRow,
  submitUnpaid,
} from '../../helpers/stripe/payments-fixture';
import { createTestApp, WEBHOOK_SECRET, type TestApp } from '../../helpers/test-app';

const LIMIT = rateLimitPolicies.stripeRefusals.limit;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { payments: recordingPayments(), queue: recordingQueue() } });
});
afterAll(() => t.close());

let ips = 0;
const freshIp = () => `198.18.${++ips}.7`;

function deliver(ip: string, body: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': ip };
  if (signature !== undefined) headers['stripe-signature'] = signature;
  return t.request('/api/webhooks/stripe', { method: 'POST', body, headers });
}

/** A correctly signed event of a type we acknowledge and ignore: cheap to send in numbers. */
const signedIgnoredEvent = () => {
  const body = buildStripeEvent('customer.created', {
    id: `cus_${crypto.randomUUID().slice(0, 12)}`,
    object: 'customer',
  });
  return { body, signature: signStripeEvent(body, WEBHOOK_SECRET) };
};
const forgedEvent = () => {
  const body = buildStripeEvent('checkout.session.completed', { id: 'cs_forged', object: 'checkout.session' });
  return { body, signature: signStripeEvent(body, 'whsec_not_ours_0123456789') };
};

describe('POST /api/webhooks/stripe: the refusal limit', () => {
  it('counts missing and wrong signatures: 400 up to the limit, then 429 with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMIT; i++) {
      const forged = forgedEvent();
      const res = i % 2 ? await deliver(ip, forged.body, forged.signature) : await deliver(ip, forged.body);
      expect(res.status, `refusal ${i + 1}`).toBe(400);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i - 1));
    }
    const over = await deliver(ip, forgedEvent().body, forgedEvent().signature);
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({
      error: { code: 'rate_limited', message: expect.stringContaining('refused Stripe deliveries') },
    });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await deliver(freshIp(), forgedEvent().body)).status).toBe(400);
  });

  it('never answers a correctly signed event 429, even from an address past its refusal limit, and applies it', async () => {
    const ip = freshIp();
    for (let i = 0; i <= LIMIT; i++) await deliver(ip, forgedEvent().body, 't=1,v1=00');
    expect((await deliver(ip, forgedEvent().body)).status).toBe(429);

    const m = await t.member('none');
    const pending = await submitUnpaid(t, m.key);
    const body = eventFixture('checkout.session.completed', paidSession(pending), { id: eventId() });
    const paid = await deliver(ip, body, signFixture(body, WEBHOOK_SECRET));
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ received: true });
    expect((await siteRow(t, pending.siteId))?.status).toBe('queued');

    for (let i = 0; i < 2 * LIMIT; i++) {
      const event = signedIgnoredEvent();
      expect((await deliver(ip, event.body, event.signature)).status, `signed event ${i + 1}`).toBe(200);
    }
  });

  it('signed events spend nothing of the refusal budget', async () => {
    const ip = freshIp();
    for (let i = 0; i < 2 * LIMIT; i++) {
      const event = signedIgnoredEvent();
      const res = await deliver(ip, event.body, event.signature);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
    }
    const first = await deliver(ip, forgedEvent().body);
    expect(first.status).toBe(400);
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('groups IPv6 senders of refused deliveries by /64', async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await deliver(`2001:db8:5:6::${(i + 1).toString(16)}`, forgedEvent().body)).status).toBe(400);
    expect((await deliver('2001:db8:5:6:ffff::1', forgedEvent().body)).status).toBe(429);
    expect((await deliver('2001:db8:5:7::1', forgedEvent().body)).status).toBe(400);
  });
});
