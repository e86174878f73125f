// GET/POST /account/keys and POST /account/keys/:id/revoke – the API keys page
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../types';
import { html } from 'hono/html';
import {
  API_KEY_PATTERN,
  createApiKey,
  listApiKeys,
  normalizeKeyName,
  revokeApiKey,
} from '../../../src/accounts/api-keys';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { ServiceError } from '../../../src/errors';
import { isUuid } from '../../../src/ids';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { setNewKeyCookie, takeNewKeyCookie } from './cookies';
import { checkSessionCsrf } from './csrf';
import { csrfField, formatTime, renderPage } from './layout';
import { readForm, sessionOrRedirect } from './session';
import { COPY_SCRIPT } from '../shell/copy-button';

/** The name field's length on this form (src/accounts/api-keys.ts normalizes the name). */
const FORM_KEY_NAME_LENGTH = 64;

type Keys = Awaited<ReturnType<typeof listApiKeys>>;

function keyRow(k: Keys[number], csrfToken: string) {
  const action = k.revokedAt
    ? html`<span class="muted">revoked ${formatTime(k.revokedAt)}</span>`
    : html`<form class="inline" method="post" action="/account/keys/${k.id}/revoke">${csrfField(csrfToken)}<button type="submit" class="danger" aria-label="${`Revoke ${k.name}`}">Revoke</button></form>`;
  return html`<tr data-key-id="${k.id}"><td data-label="Name">${k.name}</td><td data-label="Prefix"><code>${k.prefix}…</code></td><td data-label="Created">${formatTime(k.createdAt)}</td>
<td data-label="Last used">${formatTime(k.lastUsedAt)}</td><td data-label="State">${k.revokedAt ? 'revoked' : 'active'}</td><td>${action}</td></tr>`;
}

async function keysPage(c: Context<AppEnv>, session: WebSession, created: string | undefined) {
  const keys = await listApiKeys(c.get('deps'), session.accountId);
  // Show the flashed key only if it really is one of this account's active keys.
  const shown = created && keys.some((k) => !k.revokedAt && created.startsWith(k.prefix)) ? created : undefined;
  return renderPage(c, {
    title: 'API keys',
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    script: shown ? COPY_SCRIPT : undefined,
    body: html`${
      shown
        ? html`<div class="notice" id="new-key"><p><strong>Your new API key.</strong> Copy it now: it is shown only this once and cannot be recovered.</p>
<p class="actions"><input class="key" id="new-key-value" type="text" readonly value="${shown}" aria-label="New API key">
<button type="button" data-copy="new-key-value" hidden>Copy</button></p></div>`
        : ''
    }
<p>Use a key as <code>Authorization: Bearer &lt;key&gt;</code> with the REST API, the MCP server and the CLI.</p>
<form class="panel" method="post" action="/account/keys">${csrfField(session.csrfToken)}
<div class="field"><label for="key-name">Name</label><input id="key-name" type="text" name="name" maxlength="${FORM_KEY_NAME_LENGTH}" placeholder="e.g. laptop, CI, agent"></div>
<button type="submit" class="primary">Create a key</button></form>
<h2>Your keys</h2>
${
  keys.length === 0
    ? html`<p class="muted">No keys yet.</p>`
    : html`<table id="keys" class="stack"><thead><tr><th>Name</th><th>Prefix</th><th>Created</th><th>Last used</th><th>State</th><th><span class="vh">Action</span></th></tr></thead>
<tbody>${keys.map((k) => keyRow(k, session.csrfToken))}</tbody></table>`
}`,
  });
}

export function register(app: Hono<AppEnv>) {
  app.get('/keys', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const created = takeNewKeyCookie(c);
    return keysPage(c, session, created && API_KEY_PATTERN.test(created) ? created : undefined);
  });

  app.post('/keys', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    const name = normalizeKeyName(form.name, FORM_KEY_NAME_LENGTH);
    const deps = c.get('deps');
    await enforceRateLimit(c, 'apiKeyCreate', session.accountId);
    const created = await createApiKey(deps, session.accountId, name);
    // Post/redirect/get: the key rides a one-view cookie, so reloading neither re-creates nor re-shows it.
    setNewKeyCookie(c, created.key);
    return c.redirect('/account/keys', 303);
  });

  app.post('/keys/:id/revoke', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, await readForm(c), session.csrfToken);
    const id = c.req.param('id');
    if (!isUuid(id) || !(await revokeApiKey(c.get('deps'), id, session.accountId))) {
      throw new ServiceError('not_found', 'No such key on your account.');
    }
    return c.redirect('/account/keys', 303);
  });
}
