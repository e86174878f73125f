// The API reference page's content, all of it from the OpenAPI document: title, description and limits,
// a table of contents (the sections below, then the operations by tag), authentication, the shared headers and
// the error shape, then every operation under its tag.
import { html } from 'hono/html';
import type { Html } from '../shell/html';
import { SCHEMES } from './curl-example';
import { endpointsOf, type ApiDocument } from './openapi-model';
import { operationView } from './operation-view';
import { fields, prose } from './schema-view';
import { EXPLORER_PATH } from '../../v1/explorer-page';
import { OPENAPI_PATH } from '../../v1/openapi';

const anchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export function referenceView(doc: ApiDocument): Html {
  const endpoints = endpointsOf(doc);
  const names = [
    ...new Set([...(doc.tags ?? []).map((t) => t.name), ...endpoints.map((e) => e.op.tags?.[0] ?? 'Other')]),
  ];
  const groups = names
    .map((name) => ({
      name,
      description: doc.tags?.find((t) => t.name === name)?.description,
      endpoints: endpoints.filter((e) => (e.op.tags?.[0] ?? 'Other') === name),
    }))
    .filter((g) => g.endpoints.length);
  const base = doc.servers?.[0]?.url ?? '';
  const { headers = {}, securitySchemes = {}, schemas = {} } = doc.components ?? {};
  return html`<h1>${doc.info.title}</h1>
<p>${prose(doc.info.description)}</p>
<dl class="facts"><dt>Version</dt><dd>${doc.info.version}</dd><dt>Base URL</dt><dd><code>${base}</code></dd><dt>OpenAPI 3.1</dt><dd><a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a></dd></dl>
<p><a href="${EXPLORER_PATH}">Interactive explorer (Scalar)</a>: a third-party interface with a request console; it needs JavaScript and is less accessible than this page, with faults we cannot fix from outside.</p>
<nav aria-labelledby="contents" class="toc"><h2 id="contents">Contents</h2><ul><li><a href="#auth">Authentication</a></li><li><a href="#limits">Limits and headers</a></li>${schemas.Error ? html`<li><a href="#errors">Errors</a></li>` : ''}</ul>${groups.map(
    (g) =>
      html`<h3><a href="#${anchor(g.name)}">${g.name}</a></h3><ul>${g.endpoints.map((e) => html`<li><a href="#${e.op.operationId}"><span class="method">${e.method.toUpperCase()}</span> ${e.path}</a> ${e.op.summary}</li>`)}</ul>`,
  )}</nav>
<h2 id="auth">Authentication</h2>
<p>Send the secret as <code>Authorization: Bearer &lt;secret&gt;</code>. Create and revoke API keys on <a href="/account/keys">your account's API keys page</a>. Operations whose auth is "none" need no key.</p>
<dl class="facts">${Object.entries(securitySchemes).map(([name, s]) => html`<dt id="auth-${name}">${SCHEMES[name]?.[0] ?? name}</dt><dd>${s.scheme ? `HTTP ${s.scheme}: ` : ''}${prose(s.description)}</dd>`)}</dl>
<h2 id="limits">Limits and headers</h2>
<dl class="facts">${Object.entries(headers).map(([name, h]) => html`<dt><code>${name}</code></dt><dd>${prose(h.description)}</dd>`)}</dl>
${schemas.Error ? html`<h2 id="errors">Errors</h2><p>Every error answers with this body.</p>${fields(doc, schemas.Error)}` : ''}
${groups.map((g) => html`<h2 id="${anchor(g.name)}">${g.name}</h2>${g.description ? html`<p>${prose(g.description)}</p>` : ''}${g.endpoints.map((e) => operationView(doc, e, base))}`)}`;
}
