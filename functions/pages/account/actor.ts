import type { Actor } from '../../../src/accounts/actor';
import type { WebSession } from '../../../src/accounts/web-sessions';

/**
 * The signed-in person as the actor of a verb: the web session is a first-class actor of its own account, like
 * one of its API keys (functions/middleware/api-key-auth.ts) or an OAuth grant (src/oauth/access-tokens.ts), so
 * the pages call the very verbs REST and MCP call. `keyId` names an actor's credential; a session is not a key,
 * and nothing keyed by key ids (the key cache, last_used_at) applies to it, so it carries a fixed marker.
 * @example const record = await getSubmission({ deps, actor: actorOf(session), input: { siteId } });
 */
export function actorOf(session: WebSession): Actor {
  return { keyId: WEB_SESSION_KEY_ID, accountId: session.accountId, email: session.email };
}

/** Not a key id (those are UUIDs): marks an actor that came from a signed-in browser session. */
export const WEB_SESSION_KEY_ID = 'web-session';
