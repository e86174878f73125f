// The markup of /account/domains (docs/ownership.md): the add form, one panel per domain with the three proofs and
// their copyable values, and the claim form. Every form works without script; the copy buttons are an extra.
import { html } from 'hono/html';
import type { DomainRecord } from '../../../src/domains/domain-record';
import { csrfField, formatDate, formatTime, type Html } from './layout';
import { onceField } from './form-once';

export const DOMAINS_PAGE = '/account/domains';

/** A form's error, shown next to its field (and in the summary at the top). */
export interface FieldError {
  /** Which form: add, claim, or one domain's proof (`verify:<domain>`). */
  form: string;
  field: string;
  value: string;
  message: string;
}

const fieldId = (domain: string, what: string) => `${what}-${domain.replace(/[^a-z0-9-]/g, '-')}`;

/** A read-only text field with a copy button (revealed by the page's copy script). */
function copyable(id: string, label: string, value: string): Html {
  return html`<div class="field"><label for="${id}">${label}</label>
<p class="actions"><input class="key" id="${id}" type="text" readonly value="${value}"><button type="button" data-copy="${id}" hidden aria-label="${`Copy ${label}`}">Copy</button></p></div>`;
}

function errorOf(error: FieldError | undefined, form: string, field: string, id: string): { attrs: Html; text: Html } {
  if (error?.form !== form || error.field !== field) return { attrs: html``, text: html`` };
  return {
    attrs: html` aria-invalid="true" aria-describedby="${id}-error"`,
    text: html`<span class="field-error" id="${id}-error">${error.message}</span>`,
  };
}

function statusLine(d: DomainRecord): Html {
  if (d.status !== 'verified') return html`<p><strong>Pending:</strong> prove it by one of the three ways below.</p>`;
  const until = d.expires_at ? html`, until ${formatDate(d.expires_at)}` : html`, re-checked monthly`;
  const failing = d.failing_since
    ? html`<p class="notice" role="status">The last re-check failed (since ${formatTime(d.failing_since)}): put the record or file back before ${formatDate(d.lapses_at)} or the proof lapses.</p>`
    : '';
  return html`<p class="success"><strong>✓ Verified</strong> by ${d.method} on ${formatDate(d.verified_at)}${until}.</p>${failing}`;
}

function proofForms(d: DomainRecord, csrf: string, local: boolean, error?: FieldError): Html {
  const form = `verify:${d.domain}`;
  const action = `${DOMAINS_PAGE}/${encodeURIComponent(d.domain)}/verify`;
  const emailId = fieldId(d.domain, 'email');
  const codeId = fieldId(d.domain, 'code');
  const portId = fieldId(d.domain, 'port');
  const email = errorOf(error, form, 'email', emailId);
  const code = errorOf(error, form, 'code', codeId);
  const port = errorOf(error, form, 'port', portId);
  const proofError =
    error?.form === form && error.field === 'method'
      ? html`<p class="error" role="alert" id="${fieldId(d.domain, 'proof')}-error">${error.message}</p>`
      : '';
  return html`${proofError}
<h4>By DNS</h4>
<p>Add a TXT record (at the domain itself works too):</p>
${copyable(fieldId(d.domain, 'dns-name'), 'Record name', d.methods.dns.name)}
${copyable(fieldId(d.domain, 'dns-value'), 'Record value', d.methods.dns.value)}
<form method="post" action="${action}">${csrfField(csrf)}<input type="hidden" name="method" value="dns"><button type="submit">Verify by DNS</button></form>
<h4>By a file</h4>
<p>Serve the token as the whole body of this file (on <code>www.</code> works too; no redirect to another host):</p>
${copyable(fieldId(d.domain, 'http-url'), 'File URL', d.methods.http.url)}
${copyable(fieldId(d.domain, 'http-body'), 'File body', d.methods.http.body)}
<form method="post" action="${action}">${csrfField(csrf)}<input type="hidden" name="method" value="http">
${local ? html`<div class="field"><label for="${portId}">Port of your local site</label><input id="${portId}" type="number" name="port" min="1" max="65535" inputmode="numeric" value="${error?.form === form && error.field === 'port' ? error.value : ''}"${port.attrs}>${port.text}</div>` : ''}
<button type="submit">Verify by file</button></form>
<h4>By e-mail</h4>
<form method="post" action="${action}" novalidate>${csrfField(csrf)}<input type="hidden" name="method" value="email">
<div class="field"><label for="${emailId}">An address at ${d.methods.email.address_domain}</label>
<input id="${emailId}" type="email" name="email" autocomplete="email" maxlength="254" placeholder="${`founder@${d.domain}`}" value="${error?.form === form && error.field === 'email' ? error.value : ''}"${email.attrs}>${email.text}</div>
<button type="submit">Send a code</button></form>
${
  d.email_code
    ? html`<form method="post" action="${action}" novalidate>${csrfField(csrf)}<input type="hidden" name="method" value="email">
<div class="field"><label for="${codeId}">Code sent to ${d.email_code.sent_to}</label>
<input id="${codeId}" type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="20"${code.attrs}>
<span class="hint">Works until ${formatTime(d.email_code.expires_at)}, ${d.email_code.tries_left} tries left.</span>${code.text}</div>
<button type="submit" class="primary">Verify the code</button></form>`
    : ''
}`;
}

function domainPanel(d: DomainRecord, csrf: string, local: boolean, error?: FieldError): Html {
  const id = fieldId(d.domain, 'domain');
  return html`<section class="panel" id="${id}" aria-labelledby="${id}-name">
<h3 id="${id}-name">${d.domain}</h3>
${statusLine(d)}
${d.status === 'verified' ? '' : proofForms(d, csrf, local, error)}
<form class="inline" method="post" action="${DOMAINS_PAGE}/${encodeURIComponent(d.domain)}/remove">${csrfField(csrf)}<button type="submit" class="danger" aria-label="${`Remove ${d.domain}`}">Remove</button></form>
</section>`;
}

function addForm(csrf: string, error?: FieldError): Html {
  const e = errorOf(error, 'add', 'domain', 'add-domain');
  return html`<form class="panel" method="post" action="${DOMAINS_PAGE}" novalidate>${csrfField(csrf)}${onceField()}
<h2>Add a domain</h2>
<div class="field"><label for="add-domain">Domain</label>
<input id="add-domain" type="text" name="domain" required maxlength="300" autocapitalize="none" spellcheck="false" placeholder="example.com" value="${error?.form === 'add' ? error.value : ''}"${e.attrs}>
<span class="hint">The domain of your tool's address; a subdomain adds its registrable domain.</span>${e.text}</div>
<button type="submit" class="primary">Add domain</button></form>`;
}

function claimForm(csrf: string, error?: FieldError): Html {
  const e = errorOf(error, 'claim', 'url', 'claim-url');
  return html`<form class="panel" method="post" action="/account/claim" novalidate>${csrfField(csrf)}
<h2 id="claim">Claim a listing</h2>
<p>A listing of a URL on a domain you verified, submitted by another account, moves into yours.</p>
<div class="field"><label for="claim-url">The listing's URL</label>
<input id="claim-url" type="url" name="url" required maxlength="2048" placeholder="https://example.com/" value="${error?.form === 'claim' ? error.value : ''}"${e.attrs}>${e.text}</div>
<button type="submit" class="primary">Claim listing</button></form>`;
}

export function domainsBody(
  domains: DomainRecord[],
  csrf: string,
  options: { local: boolean; notice?: string; error?: FieldError },
): Html {
  const { error } = options;
  return html`${error ? html`<div class="error" role="alert" id="error-summary"><p>${error.message}</p></div>` : ''}
${options.notice ? html`<p class="success" role="status">${options.notice}</p>` : ''}
<p>Prove that you control your tool's domain: its listings in your account show <strong>✓ Verified maker</strong>,
and you can claim a listing of it that someone else submitted. The same is possible through <code>/api/v1/domains</code>
(see the <a href="/api/v1/docs">API reference</a>).</p>
${addForm(csrf, error)}
<h2>Your domains</h2>
${domains.length === 0 ? html`<p class="muted" id="no-domains">No domains yet.</p>` : domains.map((d) => domainPanel(d, csrf, options.local && d.domain.endsWith('.localhost'), error))}
${claimForm(csrf, error)}`;
}
