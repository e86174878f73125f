// One operation of the reference page: method and path, auth, parameters, request body fields, responses with
// their headers and body fields, a copyable curl command, and for public reads a "Try it" form that needs no script.
import { html } from 'hono/html';
import type { Html } from '../shell/html';
import { curlFor, SCHEMES } from './curl-example';
import {
  deref,
  isTryable,
  parametersOf,
  type ApiDocument,
  type Endpoint,
  type Parameter,
  type Response,
} from './openapi-model';
import { constraints, fields, flatten, prose, typeOf } from './schema-view';

export const TRY_PATH = '/api/v1/docs/try';

const parameterRow = (doc: ApiDocument, p: Parameter) => {
  const { s } = flatten(doc, p.schema);
  const notes = constraints(doc, { ...s, example: p.example ?? s.example });
  return html`<tr><td data-label="Name"><code>${p.name}</code>${p.required ? html` <strong>required</strong>` : ''}</td><td data-label="In">${p.in}</td><td data-label="Type">${typeOf(doc, s)}</td><td data-label="Description">${prose(p.description ?? s.description)}${notes.length ? html` <small>(${notes.map((n, i) => [i ? '; ' : '', n])})</small>` : ''}</td></tr>`;
};

/**
 * Status, description, headers (the shared ones as a link to their description, RateLimit-* as one name), and the
 * body: a link to the error shape, or its fields.
 */
function responseView(doc: ApiDocument, status: string, r: Response): Html {
  const schema = r.content?.['application/json']?.schema;
  const { name } = deref(doc, schema);
  // RateLimit-Limit, -Remaining and -Reset always travel together: one name for the three.
  const headers = [
    ...new Set(Object.keys(r.headers ?? {}).map((h) => (h.startsWith('RateLimit-') ? 'RateLimit-*' : h))),
  ];
  const body = fields(doc, schema);
  return html`<dt>${status}</dt><dd>${prose(r.description)}${
    headers.length
      ? html`<br><small>Headers: ${headers.map((h, i) => {
          const own = r.headers?.[h];
          // Shared headers (components) are described once, under "Limits and headers"; an operation's own here.
          return [
            i ? ', ' : '',
            own && !(own as { $ref?: string }).$ref
              ? html`<code>${h}</code> (${prose(own.description)})`
              : html`<a href="#limits">${h}</a>`,
          ];
        })}</small>`
      : ''
  }${name === 'Error' ? html`<br><small>Body: <a href="#errors">error</a></small>` : body ? html`<details><summary>Body: ${name ?? typeOf(doc, schema ?? {})}</summary>${body}</details>` : ''}</dd>`;
}

/** The form sends GET to TRY_PATH, which drops empty fields and redirects to the operation (functions/v1/docs-try.ts). */
const tryForm = (doc: ApiDocument, { method, path, op }: Endpoint) => {
  const id = op.operationId;
  // Each form is a landmark named by its heading: the operation in the name keeps the landmarks apart.
  return html`<h4 id="try-${id}">Try it<span class="vh">: ${op.summary ?? id}</span></h4><form class="try" method="get" action="${TRY_PATH}" aria-labelledby="try-${id}"><input type="hidden" name="op" value="${id}">${parametersOf(
    doc,
    op,
  )
    .filter((p) => p.in !== 'header')
    .map((p) => {
      const { s } = flatten(doc, p.schema);
      const number = s.type === 'integer';
      return html`<div class="field"><label for="${id}-${p.name}">${p.name}${p.required ? ' (required)' : ''}</label><input id="${id}-${p.name}" name="${p.name}"${number ? html` type="number"${s.minimum !== undefined ? html` min="${s.minimum}"` : ''}${s.maximum !== undefined ? html` max="${s.maximum}"` : ''}` : ''}${p.required ? ' required' : ''}${s.maxLength ? html` maxlength="${s.maxLength}"` : ''}></div>`;
    })}<button class="primary">Send ${method.toUpperCase()} ${path}</button></form>`;
};

export function operationView(doc: ApiDocument, endpoint: Endpoint, origin: string): Html {
  const { method, path, op } = endpoint;
  const id = op.operationId;
  const params = parametersOf(doc, op);
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  const body = op.requestBody?.content?.['application/json'];
  return html`<section class="op">
<h3 id="${id}">${op.summary ?? `${method.toUpperCase()} ${path}`}</h3>
<p><span class="method">${method.toUpperCase()}</span> <code>${path}</code> · Auth: ${scheme ? html`<a href="#auth-${scheme}">${SCHEMES[scheme]?.[0] ?? scheme}</a>` : 'none'}</p>
${op.description && op.description !== op.summary ? html`<p>${prose(op.description)}</p>` : ''}
${params.length ? html`<h4>Parameters</h4><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${params.map((p) => parameterRow(doc, p))}</tbody></table>` : ''}
${body ? html`<h4>Request body</h4><p>JSON${op.requestBody?.required ? '' : ' (optional)'}${op.requestBody?.description ? html`: ${prose(op.requestBody.description)}` : ''}</p>${fields(doc, body.schema)}` : ''}
<h4>Responses</h4><dl class="facts">${Object.entries(op.responses ?? {}).map(([status, r]) => responseView(doc, status, deref(doc, r).value))}</dl>
<h4>Example</h4><pre id="curl-${id}">${curlFor(doc, endpoint, origin)}</pre><button type="button" data-copy="curl-${id}" hidden>Copy<span class="vh"> the curl command of ${op.summary ?? id}</span></button>
${isTryable(endpoint) ? tryForm(doc, endpoint) : ''}
</section>`;
}
