// Logs never contain an API key, a Stripe secret or a session cookie: requests carrying them (valid and
// invalid keys, keys in the URL, cookies, a Stripe outage whose error is logged) run with the logger at
// debug level, and every line written (logger sink and console) is searched for the secrets.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStripePayments } from '../../src/adapters/payments/stripe';
import { loadConfig } from '../../src/config';
import { randomToken } from '../../src/crypto';
import { createLogger } from '../../src/log';
import { startStripeStandIn, type StripeStandIn } from '../helpers/standins/stripe-api';
import { createTestApp, testEnv, type TestApp } from '../helpers/test-app';

const stripeSecret = `sk_test_${randomToken(32)}`;
const strangerKey = `tdk_${randomToken(22)}`;
const sessionCookie = `tooldir_session=${randomToken(32)}`;
const editorCookie = `tooldir_editor=${randomToken(32)}`;
const lines: string[] = [];

let stripe: StripeStandIn;
let t: TestApp;
let memberKey: string;
// Some SDK errors echo the credential ("Invalid API Key provided: sk_test_…"); this one always does.
let echoSecretInError = false;

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
  }
  stripe = await startStripeStandIn();
  const env = {
    LOG_LEVEL: 'debug',
    STRIPE_SECRET_KEY: stripeSecret,
    STRIPE_API_URL: stripe.url,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_PRICE_FEATURED: 'price_featured',
    STRIPE_PRICE_SPONSORED: 'price_sponsored',
  } as const;
  const payments = createStripePayments(loadConfig(testEnv(env)).stripe!);
  t = await createTestApp({
    env,
    overrides: {
      log: createLogger('debug', (line) => lines.push(line)),
      queue: { kind: 'local', enqueue: async () => {} },
      payments: {
        ...payments,
        async createCheckout(request) {
          if (echoSecretInError)
            throw new Error(`Invalid API Key provided: ${stripeSecret} (key ${memberKey}, ${sessionCookie})`);
          return payments.createCheckout(request);
        },
      },
    },
  });
  memberKey = (await t.member('none')).key;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
  await stripe.close();
});

describe('logs', () => {
  it('never contain an API key, a Stripe secret or a session cookie', async () => {
    const cookie = `${sessionCookie}; ${editorCookie}`;
    const submit = (key: string, extra: Record<string, string> = {}) =>
      t.request('/api/v1/submit-site', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, cookie, ...extra },
        json: {
          name: `Redaction ${randomToken(6)}`,
          url: `https://redaction-${randomToken(6).toLowerCase()}.example/`,
        },
      });
    const statuses: number[] = [];
    statuses.push((await submit(memberKey)).status); // Stripe answers: 402
    stripe.setDown('error');
    statuses.push((await submit(memberKey)).status); // Stripe fails: 500 checkout_failed, logged with its cause
    stripe.setDown('destroy');
    statuses.push((await submit(memberKey)).status);
    stripe.setDown(false);
    echoSecretInError = true;
    statuses.push((await submit(memberKey)).status); // unhandled error: logged with its message
    echoSecretInError = false;
    statuses.push((await submit(strangerKey)).status); // unknown key: 401
    statuses.push((await t.request(`/api/v1/sites?key=${memberKey}`, { headers: { cookie } })).status); // key in the URL
    statuses.push((await t.request(`/api/v1/sites/${memberKey}`, { key: memberKey, headers: { cookie } })).status);
    statuses.push(
      (await t.request(`/api/v1/nope?api_key=${stripeSecret}`, { headers: { cookie, 'x-api-key': memberKey } })).status,
    );
    statuses.push(
      (
        await t.request('/api/v1/admin/accounts', {
          method: 'POST',
          key: memberKey,
          headers: { cookie },
          json: { email: 'a@b.example' },
        })
      ).status,
    );
    expect(statuses).toEqual([402, 500, 500, 500, 401, 401, 404, 404, 401]);
    // The error path must have logged something, or this test proves nothing.
    expect(lines.some((l) => l.includes('Invalid API Key provided'))).toBe(true);

    const log = lines.join('\n');
    for (const secret of [
      memberKey,
      strangerKey,
      stripeSecret,
      sessionCookie.split('=')[1]!,
      editorCookie.split('=')[1]!,
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/tdk_[0-9A-Za-z]{22}/);
    expect(log).not.toMatch(/sk_test_[0-9A-Za-z]{16,}/);
  });
});
