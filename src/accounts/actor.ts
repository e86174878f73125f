import type { KeyIdentity } from '../key-cache';
import type { WebSession } from './web-sessions';

/** Who is calling a verb: the account behind a verified API key (or a signed-in session). */
export type Actor = KeyIdentity;

/**
 * A signed-in web session acts for its own account, like one of its API keys: the same verbs, the same
 * per-account rate-limit buckets and Idempotency-Key scope. `keyId` names the credential (as a grant names an
 * OAuth actor's); no verb reads it to decide anything.
 */
export const actorForWebSession = (session: Pick<WebSession, 'accountId' | 'email'>): Actor => ({
  keyId: `web-session:${session.accountId}`,
  accountId: session.accountId,
  email: session.email,
});
