import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { accounts } from '../db/schema';
import { ServiceError } from '../errors';
import { queryRows } from '../db/client';
import { recordCheckoutSession } from '../submissions/checkout-record';
import type { MembershipTier } from '../catalog/plans';

export interface MembershipCheckout {
  checkout_url: string;
  expires_at: string;
  tier: MembershipTier;
}

/**
 * A hosted checkout link that buys the account a membership tier (a Stripe subscription for the tier's
 * configured Price). The webhook applies it: checkout.session.completed links the customer, subscription
 * events keep tier, status and period end in step; each only for a session recorded here.
 */
export async function createMembershipCheckout({
  deps,
  actor,
  input: { tier },
}: {
  deps: Deps;
  actor: Actor;
  input: { tier: MembershipTier };
}): Promise<MembershipCheckout> {
  const { accountId } = actor;
  const [account] = await deps.db
    .select({ email: accounts.email, customerId: accounts.stripeCustomerId })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw new ServiceError('not_found', 'No account with this id.');
  const session = await deps.payments.createMembershipCheckout({
    accountId,
    tier,
    email: account.email,
    customerId: account.customerId,
    origin: deps.origin,
  });
  // Recorded before the link is handed out: only a session in checkout_sessions can start a membership.
  await queryRows(deps.db, recordCheckoutSession(session, { purpose: 'membership', accountId, tier }));
  return { checkout_url: session.url, expires_at: session.expiresAt.toISOString(), tier };
}
