// The Stripe webhook on real PostgreSQL through the production driver: drizzle neon-http against the Neon
// SQL-over-HTTP stand-in, with signed events posted to the real /api/webhooks/stripe route. Neon HTTP has no
// interactive transactions, so these cases prove that every promotion, refund and newer-wins update is one
// statement (or one batch) that holds under concurrent deliveries. The scenarios are the ones the PGlite and
// node-postgres suites run (test/helpers/stripe/*-scenarios.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNeonHttpDb } from '../../src/db/client';
import { openNodePostgres } from '../../src/db/node-clients';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from '../helpers/standins/neon-http';
import {
  completedAndAsyncSucceededAtOnce,
  expiredSessionMarksPending,
  paidCheckoutQueuesPending,
  paymentRacesMemberSubmit,
  sameEventFiveTimesAtOnce,
  twoPaidSessionsRace,
  urlTakenBeforePaymentIsRefunded,
  type WebhookScenarioContext,
} from '../helpers/stripe/checkout-scenarios';
import { recordingPayments, recordingQueue } from '../helpers/stripe/payments-fixture';
import { stripeModeEnv } from '../helpers/stripe/subscription-objects';
import {
  membershipRenewalAndDeletion,
  membershipReverseOrder,
  sponsoredConflictCancelsSubscription,
  sponsorshipDeletedFirst,
  sponsorshipLifecycle,
} from '../helpers/stripe/subscription-scenarios';
import { createTestApp } from '../helpers/test-app';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('Stripe webhook on PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  // Local payment mode for the checkout cases, Stripe mode (Prices) for the subscription cases; one database.
  let checkout: WebhookScenarioContext;
  let stripe: WebhookScenarioContext;

  beforeAll(async () => {
    pg = await startPostgres();
    // Migrations run like `npm run db:migrate`: node-postgres against the real server.
    await (await openNodePostgres(pg.connectionString)).close();
    neon = await startNeonStandIn({ poolSize: 20 });
    configureNeonClient(neon);
    const db = { db: createNeonHttpDb(pg.connectionString, neon.fetchEndpoint), close: async () => {} };
    const build = async (env: Record<string, string>): Promise<WebhookScenarioContext> => {
      const payments = recordingPayments();
      const queue = recordingQueue();
      return { t: await createTestApp({ db, env, overrides: { payments, queue } }), payments, queue };
    };
    checkout = await build({});
    stripe = await build(stripeModeEnv());
  }, 120_000);
  afterAll(async () => {
    await checkout?.t.close();
    await stripe?.t.close();
    await neon?.close();
    await pg?.close();
  });

  /** Runs a shared scenario and checks that its statements really went through the Neon stand-in. */
  async function viaNeon(scenario: (ctx: WebhookScenarioContext) => Promise<void>, ctx: WebhookScenarioContext): Promise<void> {
    const before = neon.requestCount;
    await scenario(ctx);
    // Every scenario submits, delivers and reads back: at least a handful of SQL-over-HTTP requests.
    expect(neon.requestCount - before).toBeGreaterThanOrEqual(5);
  }

  describe('checkout sessions', () => {
    it('checkout.session.completed promotes the 402 record: queued, one history row, pending gone, crawl enqueued', () => viaNeon(paidCheckoutQueuesPending, checkout));
    it('the same event delivered 5 times concurrently: exactly one transition, all 2xx', () => viaNeon(sameEventFiveTimesAtOnce, checkout));
    it('completed and async_payment_succeeded of one session, 3 of each at once: one transition, no refund', () => viaNeon(completedAndAsyncSucceededAtOnce, checkout));
    it('two paid sessions for one record at once: one applied, the other refunded', () => viaNeon(twoPaidSessionsRace, checkout));
    it('URL taken by someone else before payment: refund, record reads rejected with its reason', () => viaNeon(urlTakenBeforePaymentIsRefunded, checkout));
    it('a member submit and the payment for the same URL at once: one site holds it, the loser is refused or refunded', () => viaNeon(paymentRacesMemberSubmit, checkout));
    it('checkout.session.expired marks the current session\'s record expired', () => viaNeon(expiredSessionMarksPending, checkout));
  });

  describe('subscriptions', () => {
    it('sponsorship: past_due clears the slot, invoice.paid restores it, deleted clears it', () => viaNeon(sponsorshipLifecycle, stripe));
    it('sponsorship out of order: deleted before older updated/invoice.paid ends cleared', () => viaNeon(sponsorshipDeletedFirst, stripe));
    it('sponsored payment for a URL taken meanwhile: subscription cancelled and first invoice refunded', () => viaNeon(sponsoredConflictCancelsSubscription, stripe));
    it('membership: failed renewal keeps the paid period, deletion ends it, a late older update cannot revive it', () => viaNeon(membershipRenewalAndDeletion, stripe));
    it('membership created/updated/deleted delivered in reverse order apply in event-time order', () => viaNeon(membershipReverseOrder, stripe));
  });

});
