// The money rules of issue 31 through the public surface (docs/payments.md "Refund on rejection", docs/account.md
// "Mail"): a paid submission rejected before it ever went live is refunded in full through Stripe by the refund
// job, once however often the job is delivered, with the refund's id on the record and in the mail; with
// REFUND_ON_REJECTION=false nothing is refunded and the pages say so. The payment arrives as a complete Checkout
// Session fixture signed by stripe-node; the Stripe adapter talks to the loopback stand-in.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { paidSession, recordingQueue, sendEvent, submitUnpaid } from '../../helpers/stripe/payments-fixture';
import { moveSite } from '../../helpers/submission-states';

const stripeEnv = (stripe: StripeStandIn) => ({
  STRIPE_SECRET_KEY: 'sk_test_refunds_000000000',
  STRIPE_API_URL: stripe.url,
  STRIPE_PRICE_BASIC: 'price_basic',
  STRIPE_PRICE_FEATURED: 'price_featured',
  STRIPE_PRICE_SPONSORED: 'price_sponsored',
  STRIPE_AUTOMATIC_TAX: 'on',
  STRIPE_INVOICE_CREATION: 'on',
});

interface Rig {
  t: TestApp;
  queue: ReturnType<typeof recordingQueue>;
}

async function rig(env: Record<string, string>): Promise<Rig> {
  const queue = recordingQueue();
  const t = await createTestApp({ env, overrides: { queue } });
  return { t, queue };
}

const mailsTo = (t: TestApp, email: string) =>
  queryRows<{ subject: string; text: string; headers: unknown }>(
    t.deps.db,
    sql`SELECT subject, text, headers FROM mail_outbox WHERE "to" = ${email} ORDER BY id`,
  );
const runRefundJob = (t: TestApp, siteId: string) =>
  t.request('/api/jobs/refund', { method: 'POST', key: ADMIN_TOKEN, json: { site_id: siteId } });
const reject = (t: TestApp, siteId: string, reason: string) =>
  t.request(`/api/v1/admin/sites/${siteId}/review`, {
    method: 'POST',
    key: ADMIN_TOKEN,
    json: { decision: 'reject', reason },
  });

/** A submission paid through Stripe Checkout (tax added by Stripe Tax, an invoice made), then crawled: pending_review. */
async function paidAndInReview(r: Rig, stripe: StripeStandIn, tax: number) {
  const buyer = await r.t.member('none');
  const pending = await submitUnpaid(r.t, buyer.key);
  const completed = stripe.completeSession(pending.sessionId, { tax });
  const session = paidSession(pending, {
    payment_intent: String(completed.payment_intent),
    amount_total: 1590 + tax,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: tax },
    invoice: completed.invoice as string,
    automatic_tax: { enabled: true, liability: null, provider: 'stripe', status: 'complete' },
  });
  const res = await sendEvent(r.t, 'checkout.session.completed', session);
  expect(res.status).toBe(200);
  await moveSite(r.t.deps, pending.siteId, 'pending_review');
  return { buyer, pending, paymentIntent: String(completed.payment_intent), invoice: String(completed.invoice) };
}

describe('REFUND_ON_REJECTION on (the default), Stripe mode', () => {
  let stripe: StripeStandIn;
  let r: Rig;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    r = await rig(stripeEnv(stripe));
  });
  afterAll(async () => {
    await r?.t.close();
    await stripe?.close();
  });

  it('states the rule on the checkout it makes, and mails a receipt with the tax line and the invoice page', async () => {
    const { buyer, pending, paymentIntent, invoice } = await paidAndInReview(r, stripe, 318);
    const created = stripe.requests.find(
      (q) => q.path === '/v1/checkout/sessions' && (q.body.client_reference_id as string) === pending.siteId,
    );
    expect((created!.body.custom_text as { submit: { message: string } }).submit.message).toBe(
      'If an editor rejects your tool before it ever goes live, your payment is refunded in full.',
    );
    const [receipt] = await mailsTo(r.t, buyer.email);
    expect(receipt!.subject).toBe(`Receipt: Basic listing of ${pending.name}, 19.08 USD`);
    expect(receipt!.text).toContain(
      `What you bought: Basic listing of "${pending.name}" (${pending.url}), a one-time payment.`,
    );
    expect(receipt!.text).toContain('Amount paid: 19.08 USD\nTax (included in the amount): 3.18 USD');
    expect(receipt!.text).toContain(`Invoice: ${stripe.url}/i/${invoice}`);
    expect(receipt!.text).toContain(`Payment reference: ${paymentIntent}`);
    expect(receipt!.text).toContain(`Your submission's page: ${r.t.deps.origin}/account/submissions/${pending.siteId}`);
    expect(receipt!.headers).toBeNull();
  });

  it('refunds in full once, whatever the job deliveries, with the refund id on the record and in one mail', async () => {
    const { buyer, pending, paymentIntent } = await paidAndInReview(r, stripe, 0);
    const rejected = await reject(r.t, pending.siteId, 'Not an AI tool');
    expect(rejected.status).toBe(200);
    expect(await rejected.json()).toMatchObject({ status: 'rejected', refund: { status: 'pending' } });
    expect(r.queue.jobs).toContainEqual({ step: 'refund', message: { site_id: pending.siteId } });
    // Nothing mailed yet: the rejection's mail waits for the refund, to carry its id.
    expect((await mailsTo(r.t, buyer.email)).length).toBe(1);

    // Duplicate delivery, at once: both ask Stripe under one idempotency key, one refund exists, one records it.
    const answers = await Promise.all([runRefundJob(r.t, pending.siteId), runRefundJob(r.t, pending.siteId)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const made = stripe.refunds.filter((x) => x.payment_intent === paymentIntent);
    expect(made).toHaveLength(1);
    const keys = stripe.requests
      .filter((q) => q.path === '/v1/refunds' && q.body.payment_intent === paymentIntent)
      .map((q) => q.idempotencyKey);
    expect(keys).toEqual([`refund-rejected-${pending.siteId}`, `refund-rejected-${pending.siteId}`]);
    const bodies = await Promise.all(answers.map((a) => a.json()));
    expect(bodies.map((b) => b.mailed).sort()).toEqual([false, true]);

    const record = await (await r.t.request(`/api/v1/sites/${pending.siteId}`, { key: buyer.key })).json();
    expect(record.refund).toEqual({
      status: 'refunded',
      refund_id: made[0]!.id,
      amount: 1590,
      currency: 'usd',
      refunded_at: expect.stringMatching(/Z$/),
    });
    const mails = await mailsTo(r.t, buyer.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe(`Your submission "${pending.name}" was not accepted`);
    expect(mails[1]!.text).toContain('Reason: Not an AI tool');
    expect(mails[1]!.text).toContain(`Your payment of 15.90 USD was refunded in full (refund ${String(made[0]!.id)}).`);
    expect(mails[1]!.headers).toBeNull();

    // A late redelivery finds nothing due; more than 24 hours later (Stripe forgot the key) the refund already made is found.
    expect(await (await runRefundJob(r.t, pending.siteId)).json()).toMatchObject({ outcome: 'skipped' });
    await queryRows(r.t.deps.db, sql`UPDATE sites SET refund_state = 'due' WHERE id = ${pending.siteId}::uuid`);
    stripe.forgetIdempotencyKeys();
    expect(await (await runRefundJob(r.t, pending.siteId)).json()).toMatchObject({
      outcome: 'refunded',
      refund_id: made[0]!.id,
      mailed: true,
    });
    expect(stripe.refunds.filter((x) => x.payment_intent === paymentIntent)).toHaveLength(1);
  });

  it('leaves the refund due when Stripe fails (the job answers non-2xx) and the sweep hands it to the job again', async () => {
    const { pending } = await paidAndInReview(r, stripe, 0);
    expect((await reject(r.t, pending.siteId, 'Duplicate of another tool')).status).toBe(200);
    stripe.setDown(true);
    try {
      expect((await runRefundJob(r.t, pending.siteId)).status).toBeGreaterThanOrEqual(500);
    } finally {
      stripe.setDown(false);
    }
    await queryRows(
      r.t.deps.db,
      sql`UPDATE sites SET status_changed_at = now() - interval '5 minutes' WHERE id = ${pending.siteId}::uuid`,
    );
    const before = r.queue.jobs.length;
    expect((await r.t.request('/api/jobs/sweep', { method: 'POST', key: ADMIN_TOKEN, json: {} })).status).toBe(200);
    expect(r.queue.jobs.slice(before)).toContainEqual({ step: 'refund', message: { site_id: pending.siteId } });
    expect(await (await runRefundJob(r.t, pending.siteId)).json()).toMatchObject({ outcome: 'refunded', mailed: true });
  });

  it('never refunds a takedown of a live tool, nor a membership submission', async () => {
    const { pending } = await paidAndInReview(r, stripe, 0);
    await moveSite(r.t.deps, pending.siteId, 'live');
    expect(await (await reject(r.t, pending.siteId, 'Taken down')).json()).not.toHaveProperty('refund');
    const member = await r.t.member('member');
    const queued = await r.t.request('/api/v1/submit-site', {
      method: 'POST',
      key: member.key,
      json: {
        name: `Member Tool ${crypto.randomUUID().slice(0, 6)}`,
        url: `https://m-${crypto.randomUUID().slice(0, 6)}.example/`,
      },
    });
    const siteId = (await queued.json()).site_id;
    await moveSite(r.t.deps, siteId, 'pending_review');
    expect(await (await reject(r.t, siteId, 'No')).json()).not.toHaveProperty('refund');
    expect(
      r.queue.jobs.filter((j) => j.step === 'refund' && [pending.siteId, siteId].includes(j.message.site_id!)),
    ).toEqual([]);
  });
});

describe('REFUND_ON_REJECTION=false', () => {
  let stripe: StripeStandIn;
  let r: Rig;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    r = await rig({ ...stripeEnv(stripe), REFUND_ON_REJECTION: 'false' });
  });
  afterAll(async () => {
    await r?.t.close();
    await stripe?.close();
  });

  it('refunds nothing, and the rejection mail and the pages say there is no refund', async () => {
    const { buyer, pending } = await paidAndInReview(r, stripe, 0);
    const rejected = await (await reject(r.t, pending.siteId, 'Not an AI tool')).json();
    expect(rejected.status).toBe('rejected');
    expect(rejected).not.toHaveProperty('refund');
    expect(r.queue.jobs.filter((j) => j.step === 'refund')).toEqual([]);
    expect(stripe.requests.filter((q) => q.path === '/v1/refunds')).toEqual([]);
    const mails = await mailsTo(r.t, buyer.email);
    expect(mails[1]!.text).toContain('the payment is not refunded when a tool is rejected');
    // Not about money moving: a progress mail, with its one-click unsubscribe.
    expect(mails[1]!.text).toMatch(/Stop these progress mails .*\/mail\/unsubscribe\/[0-9a-f-]{36}/);
    const pricing = await (await r.t.request('/pricing')).text();
    expect(pricing).toContain('There is no refund: if an editor rejects your tool, the payment is kept.');
    const created = stripe.requests.find((q) => q.path === '/v1/checkout/sessions');
    expect((created!.body.custom_text as { submit: { message: string } }).submit.message).toBe(
      'There is no refund: if an editor rejects your tool, the payment is kept.',
    );
  });
});

describe('local payments', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig({});
  });
  afterAll(async () => r?.t.close());

  it('the local stand-in refunds locally: an id derived from the submission, the amount our checkout charged', async () => {
    const buyer = await r.t.member('none');
    const pending = await submitUnpaid(r.t, buyer.key, { plan: 'featured' });
    expect((await sendEvent(r.t, 'checkout.session.completed', paidSession(pending))).status).toBe(200);
    await moveSite(r.t.deps, pending.siteId, 'pending_review');
    expect((await reject(r.t, pending.siteId, 'Not now')).status).toBe(200);
    const [first, second] = await Promise.all([runRefundJob(r.t, pending.siteId), runRefundJob(r.t, pending.siteId)]);
    expect([first!.status, second!.status]).toEqual([200, 200]);
    const record = await (await r.t.request(`/api/v1/sites/${pending.siteId}`, { key: buyer.key })).json();
    expect(record.refund).toMatchObject({
      status: 'refunded',
      refund_id: expect.stringMatching(/^re_local_[0-9a-f]{24}$/),
      amount: 1990,
      currency: 'usd',
    });
    const mails = await mailsTo(r.t, buyer.email);
    expect(mails.filter((m) => m.text.includes(record.refund.refund_id))).toHaveLength(1);
    expect(await (await r.t.request('/pricing')).text()).toContain('your payment is refunded in full');
  });
});
