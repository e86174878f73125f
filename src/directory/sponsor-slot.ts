import { sql } from 'drizzle-orm';

/**
 * Whether a site (alias `s`) holds its sponsor slot right now: the membership rule (isMembershipActive in
 * src/submissions/rules.ts) applied to the sponsorship's own status and paid period (src/payments/sponsorships.ts
 * keeps them). Active or trialing: held while the period lasts; past_due: held until the period already paid
 * for ends; unpaid, canceled, incomplete_expired or deleted: not held. No status yet (queued by its payment,
 * no subscription event applied since): held. Every read of is_sponsor selects this instead of the column.
 */
export const sponsorSlotHeld = sql`(s.is_sponsor AND CASE
    WHEN s.sponsor_status IS NULL THEN true
    WHEN s.sponsor_status = 'past_due' THEN coalesce(s.sponsor_period_end > now(), false)
    WHEN s.sponsor_status IN ('active', 'trialing') THEN s.sponsor_period_end IS NULL OR s.sponsor_period_end > now()
    ELSE false END)`;
