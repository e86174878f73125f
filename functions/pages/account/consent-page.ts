// GET/POST /account/authorize – the OAuth consent page: who asks, for what, allow or deny (docs/account.md)
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import type { WebSession } from '../../../src/accounts/web-sessions';
import {
  authorizationResponseUrl,
  checkAuthorizationRequest,
  type AuthorizationCheck,
  type AuthorizationRequest,
} from '../../../src/oauth/authorization-request';
import { issueAuthorizationCode } from '../../../src/oauth/codes';
import { redirectTarget } from '../../../src/oauth/redirect-uris';
import { SCOPES } from '../../../src/oauth/scopes';
import type { AppEnv } from '../../types';
import { clientIp } from '../../middleware/client-ip';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { checkSessionCsrf } from './csrf';
import { csrfField, renderPage } from './layout';
import { currentSession, readForm } from './session';
import { signInPath } from '../next-path';

/** The request parameters the consent form carries back unchanged, so the POST is checked exactly like the GET. */
const CARRIED = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
];

function consentPage(c: Context<AppEnv>, session: WebSession, request: AuthorizationRequest, params: URLSearchParams) {
  const { client } = request;
  const target = redirectTarget(request.redirectUri);
  const hidden = CARRIED.filter((name) => params.has(name)).map(
    (name) => html`<input type="hidden" name="${name}" value="${params.get(name) ?? ''}">`,
  );
  return renderPage(c, {
    title: 'Connect an app to your account',
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    // Chromium applies form-action to the redirect after the POST: the app's own origin (or scheme) must be allowed.
    formActionOrigins: [target.formAction],
    // <bdi>: the name is the app's own words, and its writing direction must not reorder the text around it.
    body: html`<p id="client"><strong id="client-name"><bdi>${client.name ?? 'An unnamed app'}</bdi></strong>
at <strong id="redirect-host">${target.label}</strong>
<span class="muted">(unverified: the name is what the app calls itself; the address is where you return after you decide)</span>
wants to use tooldir as <strong>${session.email}</strong>.</p>
<p>It asks to:</p>
<ul id="scopes">${request.scopes.map((s) => html`<li data-scope="${s}"><strong>${s}</strong>: ${SCOPES[s]}.</li>`)}</ul>
<p class="muted">It never sees your e-mail code or your API keys. You can disconnect it at any time on <a href="/account">your account page</a>.</p>
<form method="post" action="/account/authorize">${csrfField(session.csrfToken)}${hidden}
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button></form>`,
  });
}

/**
 * A request that cannot go on, answered on our own origin (never redirected: see authorization-request.ts),
 * with the OAuth error code for the app's maker. Shared by GET /oauth/authorize and the consent page.
 */
export function cannotConnectPage(c: Context<AppEnv>, failure: Extract<AuthorizationCheck, { ok: false }>) {
  return renderPage(c, {
    title: 'This app cannot connect',
    status: 400,
    body: html`<p class="error" role="alert" id="oauth-error">${failure.message}</p>
<p>Nothing was shared and you were not sent anywhere. Close this page and tell the app's maker (error <code id="oauth-error-code">${failure.error}</code>).</p>`,
  });
}

export function register(app: Hono<AppEnv>) {
  app.get('/authorize', async (c) => {
    await enforceRateLimit(c, 'public', clientIp(c)); // as GET /oauth/authorize: the check may fetch a metadata document
    const params = new URL(c.req.url).searchParams;
    const checked = await checkAuthorizationRequest(c.get('deps'), params);
    if (!checked.ok) return cannotConnectPage(c, checked);
    const session = await currentSession(c);
    if (!session) return c.redirect(signInPath(`/account/authorize?${params.toString()}`), 303);
    return consentPage(c, session, checked.request, params);
  });

  app.post('/authorize', async (c) => {
    const form = await readForm(c);
    const session = await currentSession(c);
    const params = new URLSearchParams(
      CARRIED.filter((name) => form[name] !== undefined).map((name) => [name, form[name]!]),
    );
    if (!session) return c.redirect(signInPath(`/account/authorize?${params.toString()}`), 303);
    // Same-origin and the session's synchronizer token: a cross-site page cannot approve on the person's behalf.
    await checkSessionCsrf(c, form, session.csrfToken);
    const deps = c.get('deps');
    const checked = await checkAuthorizationRequest(deps, params);
    if (!checked.ok) return cannotConnectPage(c, checked);
    const { request } = checked;
    if (form.decision !== 'allow') {
      const denied = {
        error: 'access_denied',
        error_description: 'The person declined to connect this app.',
        state: request.state,
      };
      return c.redirect(authorizationResponseUrl(deps.origin, request.redirectUri, denied), 303);
    }
    const code = await issueAuthorizationCode(deps, session.accountId, request);
    deps.log.info('oauth consent given', {
      accountId: session.accountId,
      clientId: request.client.id,
      scope: request.scopes.join(' '),
    });
    return c.redirect(authorizationResponseUrl(deps.origin, request.redirectUri, { code, state: request.state }), 303);
  });
}
