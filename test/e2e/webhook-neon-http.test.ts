// The Stripe webhook on real PostgreSQL through the production driver: drizzle neon-http against the Neon
// SQL-over-HTTP stand-in, with signed events posted to the real /api/webhooks/stripe route. Neon HTTP has no
// interactive transactions, so these cases prove that every promotion, refund and newer-wins update is one
// statement (or one batch) that holds under concurrent deliveries. The scenarios are the ones the PGlite and
// node-postgres suites run (test/helpers/stripe/*-scenarios.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
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
import { createWebhookContext } from '../helpers/stripe/payments-fixture';
import {
  expiredLinkShowsWhenItStopped,
  foreignSessionWithoutReference,
  foreignSubscriptionEvents,
  metadataClaimingAnotherPlan,
  oneCentIsRefunded,
  paymentLinkSessionNamingPendingSite,
  subscriptionModeForOneTimePlanIsRefunded,
  wrongCurrencyIsRefunded,
} from '../helpers/stripe/ownership-scenarios';
import { stripeModeEnv } from '../helpers/stripe/subscription-objects';
import {
  membershipCheckoutsAreOursOnly,
  membershipRenewalAndDeletion,
  membershipReverseOrder,
  pastDueSponsorshipEndsAtPeriodEnd,
  sponsoredConflictCancelsSubscription,
  sponsorshipDeletedFirst,
  sponsorshipLifecycle,
} from '../helpers/stripe/subscription-scenarios';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('Stripe webhook on PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  // Local payment mode for the checkout cases, Stripe mode (Prices) for the subscription cases; one database.
  let checkout: WebhookScenarioContext;
  let stripe: WebhookScenarioContext;

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 20 });
    ({ pg, neon } = started);
    const db = { db: started.db, close: async () => {} };
    const build = (env: Record<string, string>): Promise<WebhookScenarioContext> => createWebhookContext({ db, env });
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
  async function viaNeon(
    scenario: (ctx: WebhookScenarioContext) => Promise<void>,
    ctx: WebhookScenarioContext,
  ): Promise<void> {
    const before = neon.requestCount;
    await scenario(ctx);
    // Every scenario submits, delivers and reads back: at least a handful of SQL-over-HTTP requests.
    expect(neon.requestCount - before).toBeGreaterThanOrEqual(5);
  }

  describe('checkout sessions', () => {
    it('checkout.session.completed promotes the 402 record: queued, one history row, pending gone, crawl enqueued', () =>
      viaNeon(paidCheckoutQueuesPending, checkout));
    it('the same event delivered 5 times concurrently: exactly one transition, all 2xx', () =>
      viaNeon(sameEventFiveTimesAtOnce, checkout));
    it('completed and async_payment_succeeded of one session, 3 of each at once: one transition, no refund', () =>
      viaNeon(completedAndAsyncSucceededAtOnce, checkout));
    it('two paid sessions for one record at once: one applied, the other refunded', () =>
      viaNeon(twoPaidSessionsRace, checkout));
    it('URL taken by someone else before payment: refund, record reads rejected with its reason', () =>
      viaNeon(urlTakenBeforePaymentIsRefunded, checkout));
    it('a member submit and the payment for the same URL at once: one site holds it, the loser is refused or refunded', () =>
      viaNeon(paymentRacesMemberSubmit, checkout));
    it("checkout.session.expired marks the current session's record expired", () =>
      viaNeon(expiredSessionMarksPending, checkout));
    it('after expiry the detail read shows when the link stopped working; after a re-submit, the new link', () =>
      viaNeon(expiredLinkShowsWhenItStopped, checkout));
  });

  describe('only our own sessions count', () => {
    it('a Payment Link session naming a pending site: nothing changes, nothing refunded', () =>
      viaNeon(paymentLinkSessionNamingPendingSite, checkout));
    it('a foreign session without client_reference_id: acknowledged and ignored', () =>
      viaNeon(foreignSessionWithoutReference, checkout));
    it("a foreign subscription's events: nothing changes, nothing cancelled", () =>
      viaNeon(foreignSubscriptionEvents, stripe));
    it('1 cent on our session: refunded, rejected naming amount_total', () => viaNeon(oneCentIsRefunded, checkout));
    it('a wrong currency on our session: refunded, rejected naming currency', () =>
      viaNeon(wrongCurrencyIsRefunded, checkout));
    it('a subscription-mode session for a one-time plan: cancelled and refunded, rejected naming mode', () =>
      viaNeon(subscriptionModeForOneTimePlanIsRefunded, checkout));
    it("metadata claiming another plan: our record's plan is applied", () =>
      viaNeon(metadataClaimingAnotherPlan, checkout));
    it('membership checkouts: only ours start a tier, and ours must charge what we created', () =>
      viaNeon(membershipCheckoutsAreOursOnly, stripe));
  });

  describe('subscriptions', () => {
    it('sponsorship: past_due keeps the slot while the paid period runs, invoice.paid renews it, deleted clears it', () =>
      viaNeon(sponsorshipLifecycle, stripe));
    it('sponsorship past_due ends at the paid period end, exactly like a membership', () =>
      viaNeon(pastDueSponsorshipEndsAtPeriodEnd, stripe));
    it('sponsorship out of order: deleted before older updated/invoice.paid ends cleared', () =>
      viaNeon(sponsorshipDeletedFirst, stripe));
    it('sponsored payment for a URL taken meanwhile: subscription cancelled and first invoice refunded', () =>
      viaNeon(sponsoredConflictCancelsSubscription, stripe));
    it('membership: failed renewal keeps the paid period, deletion ends it, a late older update cannot revive it', () =>
      viaNeon(membershipRenewalAndDeletion, stripe));
    it('membership created/updated/deleted delivered in reverse order apply in event-time order', () =>
      viaNeon(membershipReverseOrder, stripe));
  });
});
