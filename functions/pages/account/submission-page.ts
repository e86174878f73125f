// GET /account/submissions/{site_id} – one of the signed-in person's submissions: status, what to do next, history
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { WebSession } from '../../../src/accounts/web-sessions';
import type { ServiceError } from '../../../src/errors';
import { getSubmission } from '../../../src/submissions/get';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { COPY_SCRIPT } from '../shell/copy-button';
import { actorForWebSession } from '../../../src/accounts/actor';
import { renderPage } from './layout';
import { sessionOrRedirect } from './session';
import { submissionBody, type EditFormState, type UrlFormState } from './submission-sections';
import type { McpFormState } from './mcp-section';

/** A refused action shown above the page it came from, with what was typed into its form. */
export interface Refusal {
  error: ServiceError;
  edit?: EditFormState;
  urlChange?: UrlFormState;
  mcpChange?: McpFormState;
}

/**
 * Renders the page for one of the session's submissions; another account's, an unknown and a malformed id are
 * the account area's one 404 (getSubmission's rule, the API's). A refused action comes back with its status.
 */
export async function submissionPage(c: Context<AppEnv>, session: WebSession, siteId: string, refusal?: Refusal) {
  const deps = c.get('deps');
  const actor = actorForWebSession(session);
  const record = await getSubmission({ deps, actor, input: { siteId } });
  const live = record.status === 'live';
  if (refusal?.error.details.retryAfterSeconds !== undefined)
    c.header('Retry-After', String(refusal.error.details.retryAfterSeconds));
  const body = await submissionBody({
    deps,
    actor,
    record,
    now: deps.now(),
    csrfToken: session.csrfToken,
    idempotencyKey: crypto.randomUUID(),
    edit: refusal?.edit,
    urlChange: refusal?.urlChange,
    mcpChange: refusal?.mcpChange,
  });
  return renderPage(c, {
    title: record.name,
    status: (refusal?.error.status ?? 200) as ContentfulStatusCode,
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    narrow: true,
    script: live ? COPY_SCRIPT : undefined,
    // A fresh checkout redirects to the payment provider's page: its origin must be a place the form may lead.
    formActionOrigins:
      'checkout_url' in record ? [new URL(record.checkout_url).origin].filter((o) => o !== deps.origin) : [],
    body: html`<p><a href="/account">← All your submissions</a></p>
${refusal ? html`<div class="error" role="alert" id="error-summary"><p>${refusal.error.message}</p></div>` : ''}
${body}`,
  });
}

export function register(app: Hono<AppEnv>) {
  app.get('/submissions/:id', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    // The same bucket as GET /api/v1/sites/{site_id}: the page is that read, for a person.
    await enforceRateLimit(c, 'read', session.accountId);
    return submissionPage(c, session, c.req.param('id'));
  });
}
