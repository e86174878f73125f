// GET/POST /account/webhooks, POST /account/webhooks/:id/test and /delete – the account's webhook endpoints
// through the same verbs as /api/v1/webhooks (src/webhooks/*): add (secret shown once), test ping, remove,
// recent deliveries (docs/webhooks.md)
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { actorForWebSession } from '../../../src/accounts/actor';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { isServiceError } from '../../../src/errors';
import { createWebhook } from '../../../src/webhooks/create-webhook';
import { deleteWebhook } from '../../../src/webhooks/delete-webhook';
import { listDeliveries, type DeliveryAttempt } from '../../../src/webhooks/list-deliveries';
import { listWebhooks } from '../../../src/webhooks/list-webhooks';
import { sendTestPing } from '../../../src/webhooks/send-test-ping';
import { WEBHOOK_URL_MAX_LENGTH } from '../../../src/webhooks/target';
import { MAX_WEBHOOKS_PER_ACCOUNT, type WebhookRecord } from '../../../src/webhooks/webhook-record';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { COPY_SCRIPT } from '../shell/copy-button';
import { setNewWebhookCookie, takeNewWebhookCookie } from './cookies';
import { checkSessionCsrf } from './csrf';
import { csrfField, formatTime, renderPage, type Html } from './layout';
import { readForm } from './session';
import { sessionOrRedirect } from './session';
import { onceField, runOnce } from './form-once';

const PAGE = '/account/webhooks';
/** Attempts shown per endpoint; the API lists up to 100 (GET /api/v1/webhooks/{id}/deliveries). */
const SHOWN_ATTEMPTS = 10;
const SECRET = /^whsec_[0-9A-Za-z]{32}$/;

interface FormState {
  url: string;
  error: string;
  status: 400 | 409;
}

function attemptRow(a: DeliveryAttempt): Html {
  const result = a.succeeded
    ? `delivered (HTTP ${a.status_code})`
    : a.status_code !== null
      ? `failed: HTTP ${a.status_code}`
      : `failed: ${a.error ?? 'no answer'}`;
  return html`<tr><td data-label="Event">${a.event_type} <span class="muted small">${a.event_id}</span></td><td data-label="Attempt">${a.attempt}</td>
<td data-label="Result">${result}</td><td data-label="At">${formatTime(a.at)}</td><td data-label="Next retry">${formatTime(a.next_retry_at)}</td></tr>`;
}

function webhookPanel(w: WebhookRecord, attempts: DeliveryAttempt[], csrfToken: string, pinged: boolean): Html {
  const shown = attempts.slice(0, SHOWN_ATTEMPTS);
  return html`<section class="panel" id="webhook-${w.webhook_id}" data-webhook-id="${w.webhook_id}" aria-labelledby="webhook-${w.webhook_id}-url">
<h3 id="webhook-${w.webhook_id}-url"><bdi>${w.url}</bdi></h3>
<p class="muted small">Events: ${w.events.join(', ')} · added ${formatTime(w.created_at)}</p>
${pinged ? html`<p class="success" role="status">A signed test ping is on its way. Reload this page to see the attempt.</p>` : ''}
<div class="actions"><form class="inline" method="post" action="${PAGE}/${w.webhook_id}/test">${csrfField(csrfToken)}<button type="submit" aria-label="${`Send test ping to ${w.url}`}">Send test ping</button></form>
<form class="inline" method="post" action="${PAGE}/${w.webhook_id}/delete">${csrfField(csrfToken)}<button type="submit" class="danger" aria-label="${`Delete the webhook ${w.url}`}">Delete</button></form></div>
<h4>Recent deliveries</h4>
${
  shown.length === 0
    ? html`<p class="muted">No deliveries yet.</p>`
    : html`<table class="stack deliveries"><thead><tr><th>Event</th><th>Attempt</th><th>Result</th><th>At</th><th>Next retry</th></tr></thead>
<tbody>${shown.map(attemptRow)}</tbody></table>${attempts.length > SHOWN_ATTEMPTS ? html`<p class="muted small">Older attempts: <code>GET /api/v1/webhooks/${w.webhook_id}/deliveries</code>.</p>` : ''}`
}
</section>`;
}

function addForm(csrfToken: string, count: number, state?: FormState): Html {
  if (count >= MAX_WEBHOOKS_PER_ACCOUNT && !state) {
    return html`<p class="notice" id="webhooks-full">You have ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks, the most an account can have. Delete one to add another.</p>`;
  }
  const invalid = state
    ? html` aria-invalid="true" aria-describedby="webhook-url-error"`
    : html` aria-describedby="webhook-url-hint"`;
  return html`<form class="panel" method="post" action="${PAGE}" novalidate>${csrfField(csrfToken)}${onceField()}
<h2>Add a webhook</h2>
<div class="field"><label for="webhook-url">Endpoint URL</label>
<input id="webhook-url" type="url" name="url" required maxlength="${WEBHOOK_URL_MAX_LENGTH}" value="${state?.url ?? ''}" placeholder="https://example.com/hooks/tooldir"${invalid}>
<span class="hint" id="webhook-url-hint">https, a public address, port 443 or 80. Every status change of your submissions is POSTed there, signed.</span>
${state ? html`<span class="field-error" id="webhook-url-error">${state.error}</span>` : ''}</div>
<button type="submit" class="primary">Add webhook</button></form>`;
}

async function webhooksPage(c: Context<AppEnv>, session: WebSession, state?: FormState) {
  const deps = c.get('deps');
  const actor = actorForWebSession(session);
  const { data: hooks } = await listWebhooks({ deps, actor });
  const attempts = await Promise.all(
    hooks.map((w) => listDeliveries({ deps, actor, input: { webhookId: w.webhook_id } })),
  );
  // Show the flashed secret only for one of this account's endpoints (post/redirect/get: a reload no longer shows it).
  const flashed = state ? undefined : takeNewWebhookCookie(c);
  const created =
    flashed && SECRET.test(flashed.secret) ? hooks.find((w) => w.webhook_id === flashed.webhookId) : undefined;
  const pinged = c.req.query('pinged');
  return renderPage(c, {
    title: 'Webhooks',
    status: state?.status ?? 200,
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    script: created ? COPY_SCRIPT : undefined,
    body: html`${state ? html`<div class="error" role="alert" id="error-summary"><p>The webhook was not added: <a href="#webhook-url">${state.error}</a></p></div>` : ''}${
      created && flashed
        ? html`<div class="notice" id="new-webhook"><p><strong>Signing secret of <bdi>${created.url}</bdi>.</strong> Copy it now: it is shown only this once.
Verify each delivery's <code>Tooldir-Signature</code> header with it.</p>
<p class="actions"><input class="key" id="new-webhook-secret" type="text" readonly value="${flashed.secret}" aria-label="Signing secret">
<button type="button" data-copy="new-webhook-secret" hidden>Copy</button></p></div>`
        : ''
    }
<p>Webhooks tell your own systems when a submission changes status: each change is POSTed as a signed
<code>site.status_changed</code> event to every endpoint, retried for about a day and a half until it answers 2xx. The same endpoints
are managed through <code>/api/v1/webhooks</code> (see the <a href="/api/v1/docs">API reference</a>).</p>
${addForm(session.csrfToken, hooks.length, state)}
<h2>Your webhooks</h2>
${
  hooks.length === 0
    ? html`<p class="muted" id="no-webhooks">No webhooks yet.</p>`
    : hooks.map((w, i) => webhookPanel(w, attempts[i]?.data ?? [], session.csrfToken, pinged === w.webhook_id))
}`,
  });
}

export function register(app: Hono<AppEnv>) {
  app.get('/webhooks', async (c) => {
    const session = await sessionOrRedirect(c, PAGE);
    if (session instanceof Response) return session;
    return webhooksPage(c, session);
  });

  app.post('/webhooks', async (c) => {
    const session = await sessionOrRedirect(c, PAGE);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    const deps = c.get('deps');
    await enforceRateLimit(c, 'webhooks', session.accountId);
    const url = (form.url ?? '').slice(0, WEBHOOK_URL_MAX_LENGTH + 1);
    try {
      // A double click or a reload adds one endpoint and shows its secret, not a second one whose secret nobody saw.
      const created = await runOnce(c, session.accountId, form, 'webhook_create', { url }, () =>
        createWebhook({ deps, actor: actorForWebSession(session), input: { url } }),
      );
      // Post/redirect/get: the secret rides a one-view cookie, so reloading neither re-creates nor re-shows it.
      setNewWebhookCookie(c, created.webhook_id, created.secret);
      return c.redirect(PAGE, 303);
    } catch (error) {
      if (!isServiceError(error) || (error.code !== 'invalid_request' && error.code !== 'too_many_webhooks'))
        throw error;
      return webhooksPage(c, session, {
        url,
        error: error.message,
        status: error.code === 'too_many_webhooks' ? 409 : 400,
      });
    }
  });

  for (const action of ['test', 'delete'] as const) {
    app.post(`/webhooks/:id/${action}`, async (c) => {
      const session = await sessionOrRedirect(c, PAGE);
      if (session instanceof Response) return session;
      await checkSessionCsrf(c, await readForm(c), session.csrfToken);
      const deps = c.get('deps');
      await enforceRateLimit(c, 'webhooks', session.accountId);
      const input = { webhookId: c.req.param('id') };
      if (action === 'delete') {
        try {
          await deleteWebhook({ deps, actor: actorForWebSession(session), input });
        } catch (error) {
          // Gone is what Delete asked for: a double click's second POST (or a stale page) lands on the list, not an
          // error page. Nothing of another account's is touched or told.
          if (!isServiceError(error) || error.code !== 'not_found') throw error;
        }
        return c.redirect(PAGE, 303);
      }
      await sendTestPing({ deps, actor: actorForWebSession(session), input });
      return c.redirect(
        `${PAGE}?pinged=${encodeURIComponent(input.webhookId)}#webhook-${encodeURIComponent(input.webhookId)}`,
        303,
      );
    });
  }
}
