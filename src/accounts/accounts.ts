import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import { accounts } from '../db/schema';
import { isUniqueViolation } from '../db/client';
import { ServiceError } from '../errors';
import type { Tier } from './memberships';
import { normalizeEmail } from './sign-in';

export interface AccountView {
  account_id: string;
  email: string;
  tier: Tier;
  membership_status: string;
  current_period_end: string | null;
}

const view = (row: typeof accounts.$inferSelect): AccountView => ({
  account_id: row.id,
  email: row.email,
  tier: row.tier,
  membership_status: row.membershipStatus,
  current_period_end: row.membershipPeriodEnd?.toISOString() ?? null,
});

/** Creates an account; a tier other than none starts an active, operator-set membership. */
export async function createAccount(deps: Deps, input: { email: string; tier?: Tier }): Promise<AccountView> {
  const tier = input.tier ?? 'none';
  try {
    const [row] = await deps.db
      .insert(accounts)
      .values({
        email: normalizeEmail(input.email) ?? input.email.trim().toLowerCase(),
        tier,
        membershipStatus: tier === 'none' ? 'none' : 'active',
        membershipSource: tier === 'none' ? null : 'operator',
        membershipUpdatedAt: tier === 'none' ? null : deps.now(),
      })
      .returning();
    return view(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServiceError('conflict', 'An account with this e-mail already exists.');
    throw error;
  }
}

export async function findAccountByEmail(deps: Deps, email: string) {
  const [row] = await deps.db
    .select()
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(email) ?? email.trim().toLowerCase()));
  return row ? view(row) : undefined;
}

export async function getAccount(deps: Deps, accountId: string): Promise<AccountView> {
  const [row] = await deps.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw new ServiceError('not_found', 'No account with this id.');
  return view(row);
}

/**
 * Operator-set membership. It stamps membership_updated_at, so a Stripe event older than this change
 * cannot overwrite it (and a newer one can): see payments/memberships.
 */
export async function setMembershipByOperator(
  deps: Deps,
  accountId: string,
  input: { tier: Tier; status?: string; current_period_end?: string | null },
): Promise<AccountView> {
  const status = input.status ?? (input.tier === 'none' ? 'none' : 'active');
  const [row] = await deps.db
    .update(accounts)
    .set({
      tier: input.tier,
      membershipStatus: status,
      membershipPeriodEnd: input.current_period_end ? new Date(input.current_period_end) : null,
      membershipSource: 'operator',
      membershipUpdatedAt: deps.now(),
    })
    .where(eq(accounts.id, accountId))
    .returning();
  if (!row) throw new ServiceError('not_found', 'No account with this id.');
  return view(row);
}
