// The "Connected apps" section of /account and POST /account/apps/:grant_id/revoke (docs/account.md)
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { Deps } from '../../../src/deps';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { ServiceError } from '../../../src/errors';
import { listGrants, revokeGrant, type GrantView } from '../../../src/oauth/grants';
import { redirectTarget } from '../../../src/oauth/redirect-uris';
import type { AppEnv } from '../../types';
import { checkSessionCsrf } from './csrf';
import { csrfField, formatTime } from './layout';
import { readForm, sessionOrRedirect } from './session';
import { isUuid } from '../../../src/ids';

function appRow(g: GrantView, csrfToken: string) {
  const host = (() => {
    try {
      return redirectTarget(g.redirect_uri).label;
    } catch {
      return g.redirect_uri;
    }
  })();
  return html`<tr data-grant-id="${g.grant_id}"><td data-label="App"><bdi>${g.client_name ?? 'An unnamed app'}</bdi> <span class="muted">(unverified; returns to ${host})</span></td>
<td data-label="Scopes">${g.scopes.join(', ')}</td><td data-label="Connected">${formatTime(g.created_at)}</td><td data-label="Last used">${formatTime(g.last_used_at)}</td>
<td><form class="inline" method="post" action="/account/apps/${g.grant_id}/revoke">${csrfField(csrfToken)}<button type="submit" class="danger">Revoke</button></form></td></tr>`;
}

/** The apps this account has allowed through OAuth; revoking one ends its tokens on their next use. */
export async function connectedAppsSection(deps: Deps, session: WebSession) {
  const grants = await listGrants(deps, session.accountId);
  return html`<h2>Connected apps</h2>
${
  grants.length === 0
    ? html`<p class="muted" id="no-apps">No app is connected. Assistants that add tooldir by its MCP URL ask you here first.</p>`
    : html`<table id="apps" class="stack"><thead><tr><th>App</th><th>Scopes</th><th>Connected</th><th>Last used</th><th><span class="vh">Action</span></th></tr></thead>
<tbody>${grants.map((g) => appRow(g, session.csrfToken))}</tbody></table>`
}`;
}

export function register(app: Hono<AppEnv>) {
  app.post('/apps/:id/revoke', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, await readForm(c), session.csrfToken);
    const id = c.req.param('id');
    if (!isUuid(id) || !(await revokeGrant(c.get('deps'), session.accountId, id))) {
      throw new ServiceError('not_found', 'No such connected app on your account.');
    }
    return c.redirect('/account', 303);
  });
}
