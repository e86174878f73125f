// The Worker's stripe-node carries only the API resources the Worker calls (wrangler.toml [alias] "./stripe.core.js",
// functions/worker/stripe-core-subset.ts). In this file `stripe` IS that build: bundled as wrangler bundles the Worker
// (its conditions and every [alias] of wrangler.toml), so the payments adapter below runs on what production runs.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  STRIPE_CORE_MODULE,
  STRIPE_RESOURCES_USED,
  stripeCoreSubset,
  stripeEsmDir,
} from '../../../functions/worker/stripe-core-subset';
import { createStripePayments } from '../../../src/adapters/payments/stripe';
import { loadConfig } from '../../../src/config';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';
import { startSubscriptionStandIn } from '../../helpers/stripe/subscription-standin';
import { wranglerAliases } from '../../helpers/worker-build';

const buildDir = join(tmpdir(), `tooldir-worker-stripe-${process.pid}`);
vi.mock('stripe', async () => {
  const { bundleLikeWorker } = await import('../../helpers/worker-build');
  const { writeStripeCoreModule } = await import('../../../functions/worker/stripe-core-subset');
  const { join: joinPath } = await import('node:path');
  const { tmpdir: tmp } = await import('node:os');
  const { pathToFileURL } = await import('node:url');
  writeStripeCoreModule(); // what wrangler.toml's [build] command writes before wrangler bundles
  const out = joinPath(tmp(), `tooldir-worker-stripe-${process.pid}`, 'stripe.mjs');
  await bundleLikeWorker("export * from 'stripe'; export { default } from 'stripe';", out);
  return import(pathToFileURL(out).href);
});
afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

const root = resolve(import.meta.dirname, '../../..');

/** Every .ts file under src/ and functions/ that imports stripe-node as a value (not `import type`). */
function stripeUsers(): string[] {
  return ['src', 'functions']
    .flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => join(entry.parentPath, entry.name)),
    )
    .filter((file) => /^import Stripe from 'stripe';$/m.test(readFileSync(file, 'utf8')));
}

/** `stripe.a.b(` / `stripe().a.b(` (a client) and `Stripe.a.b(` (the class) as written in those files. */
function callsWritten(): { client: Set<string>; statics: Set<string> } {
  const client = new Set<string>();
  const statics = new Set<string>();
  for (const file of stripeUsers()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bstripe(?:\(\))?\.([\w.]+)\(/g)) client.add(m[1] as string);
    for (const m of text.matchAll(/\bStripe\.([\w.]+)\(/g)) statics.add(m[1] as string);
  }
  return { client, statics };
}

const at = (object: unknown, path: string) =>
  path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);

describe("the Worker's stripe-node", () => {
  it('is the core [build] writes, aliased in wrangler.toml: the installed one minus the resources left out', () => {
    expect(wranglerAliases()['./stripe.core.js']).toBe(STRIPE_CORE_MODULE);
    const installed = readFileSync(join(stripeEsmDir(), 'stripe.core.js'), 'utf8');
    const written = readFileSync(STRIPE_CORE_MODULE, 'utf8');
    expect(written).toBe(stripeCoreSubset(installed, relative(join(STRIPE_CORE_MODULE, '..'), stripeEsmDir())));
    expect(written.length).toBeLessThan(installed.length);
  });

  it('has every resource method src/ and functions/ call, and leaves out the others', () => {
    const { client: calls, statics } = callsWritten();
    // The scan must see the calls it guards (a regex that found nothing would pass everything).
    expect(calls).toContain('checkout.sessions.create');
    expect(calls).toContain('billingPortal.sessions.create');
    expect(statics).toContain('webhooks.constructEventAsync');
    const client = new Stripe('sk_test_worker_0000', { httpClient: Stripe.createFetchHttpClient() });
    for (const call of calls) expect(typeof at(client, call), `stripe.${call}`).toBe('function');
    for (const call of statics) expect(typeof at(Stripe, call), `Stripe.${call}`).toBe('function');
    // The list kept is exactly what is called: one place to change when a call is added or removed.
    expect([...new Set([...calls].map((call) => call.split('.')[0]))].sort()).toEqual(
      [...STRIPE_RESOURCES_USED].sort(),
    );
    // And the cut is in effect: resources nobody calls are not there.
    for (const unused of ['accounts', 'customers', 'paymentIntents', 'prices', 'events', 'v2', 'treasury']) {
      expect(at(client, unused), unused).toBeUndefined();
    }
    expect(Object.keys(Stripe.resources)).toEqual(['OAuthResource']);
    expect(() => client.notificationHandler('whsec_x', async () => undefined)).toThrow(/not part of the Worker build/);
  });

  it('verifies a webhook signature and refuses a forged one', async () => {
    const payload = JSON.stringify({ id: 'evt_worker_1', object: 'event', type: 'checkout.session.completed' });
    const cryptoProvider = Stripe.createSubtleCryptoProvider();
    const header = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: 'whsec_w', cryptoProvider });
    const event = await Stripe.webhooks.constructEventAsync(payload, header, 'whsec_w', undefined, cryptoProvider);
    expect(event.id).toBe('evt_worker_1');
    await expect(
      Stripe.webhooks.constructEventAsync(payload, header, 'whsec_other', undefined, cryptoProvider),
    ).rejects.toMatchObject({ type: 'StripeSignatureVerificationError' });
  });
});

describe("the payments adapter on the Worker's stripe-node (Stripe stand-in)", () => {
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(() => standIn.close());

  const config = (apiUrl: string) =>
    loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_worker_0000',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_API_URL: apiUrl,
      STRIPE_PRICE_BASIC: 'price_basic',
      STRIPE_PRICE_FEATURED: 'price_featured',
      STRIPE_PRICE_SPONSORED: 'price_sponsored',
      STRIPE_PRICE_MEMBER: 'price_featured',
    }).stripe!;
  const request = {
    siteId: '0b8f8a52-4f3e-4a41-8d53-1f0c8f6c9a11',
    name: 'Acme',
    url: 'https://acme.example',
    email: 'a@example.com',
    origin: 'https://tooldir.example',
  };

  it('makes every request the adapter makes', async () => {
    const expected = { amount: 0, currency: 'usd' }; // read by the local provider only
    const payments = createStripePayments(config(standIn.url));
    standIn.clearRequests();
    const paid = await payments.createCheckout({ ...request, plan: 'featured', kind: 'featured', version: 1 });
    const sponsor = await payments.createCheckout({ ...request, plan: 'sponsored', kind: 'sponsored', version: 2 });
    expect(paid.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await payments.expireCheckout(sponsor.sessionId);
    standIn.completeSession(paid.sessionId, { paymentIntent: 'pi_worker_1' });
    const first = await payments.refundInFull({
      paymentIntentId: 'pi_worker_1',
      idempotencyKey: 'w-1',
      reason: 'x',
      expected,
    });
    // A second refund of a refunded payment: Stripe says charge_already_refunded, the adapter lists the refund made.
    const again = await payments.refundInFull({
      paymentIntentId: 'pi_worker_1',
      idempotencyKey: 'w-2',
      reason: 'x',
      expected,
    });
    expect(again.refundId).toBe(first.refundId);
    await payments.refund('pi_worker_2', 'taken');
    await expect(payments.invoiceUrl('in_unknown')).rejects.toMatchObject({ statusCode: 404 });
    const portal = await payments.createBillingPortal({ customerId: 'cus_w', returnUrl: 'https://tooldir.example/' });
    expect(portal.url).toBeTruthy();
    standIn.setSubscription({ id: 'sub_worker_1', current_period_end: 1_800_000_000, latest_invoice: 'in_w' });
    await payments.cancelSubscriptionAtPeriodEnd('sub_worker_1');
    await payments.cancelReplacedSubscription('sub_worker_1');
    // The stand-in knows no invoice_payments: the request reaching it is what this shows.
    await expect(
      payments.refundInFull({ subscriptionId: 'sub_worker_1', idempotencyKey: 'w-3', reason: 'x', expected }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/checkout/sessions',
      'POST /v1/checkout/sessions',
      `POST /v1/checkout/sessions/${sponsor.sessionId}/expire`,
      'POST /v1/refunds',
      'POST /v1/refunds',
      'GET /v1/refunds',
      'POST /v1/refunds',
      'GET /v1/invoices/in_unknown',
      'POST /v1/billing_portal/sessions',
      'POST /v1/subscriptions/sub_worker_1',
      'DELETE /v1/subscriptions/sub_worker_1',
      'DELETE /v1/subscriptions/sub_worker_1',
      'GET /v1/subscriptions/sub_worker_1',
      'GET /v1/invoice_payments',
    ]);
  });

  it('cancels a subscription and refunds its first invoice (invoice payments)', async () => {
    const sub = await startSubscriptionStandIn({ in_w: 'pi_sub_w' });
    try {
      await createStripePayments(config(sub.url)).cancelSubscriptionAndRefund('sub_w', 'in_w', 'taken');
      expect(sub.requests.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
        'DELETE /v1/subscriptions/sub_w?prorate=false',
        'GET /v1/invoice_payments?invoice=in_w&status=paid&limit=10',
        'POST /v1/refunds',
      ]);
    } finally {
      await sub.close();
    }
  });
});

describe('stripeCoreSubset', () => {
  const installed = () => readFileSync(join(stripeEsmDir(), 'stripe.core.js'), 'utf8');
  it('refuses a stripe.core.js it does not recognise instead of writing a broken client', () => {
    expect(() => stripeCoreSubset('export class Stripe {}', '../esm')).toThrow(/not recognised/);
    expect(() => stripeCoreSubset(installed(), '../esm', ['checkout', 'noSuchResource'])).toThrow(/noSuchResource/);
    const renamed = installed().replace("import * as resources from './resources.js';\n", '');
    expect(() => stripeCoreSubset(renamed, '../esm')).toThrow(/not recognised/);
  });
});
