import type { KeyIdentity } from './key-cache';

/** Who is calling a verb: the account behind a verified API key (or a signed-in session). */
export type Actor = KeyIdentity;

/**
 * A signed-in web session acts for its own account like an API key does: the account area's forms call the
 * same verbs as the REST API. `keyId` names the credential kind, as it names the key or the OAuth grant.
 */
export const webSessionActor = (session: { accountId: string; email: string }): Actor => ({
  keyId: 'web-session',
  accountId: session.accountId,
  email: session.email,
});
