// "MCP server" on the owner's submission page (docs/mcp-servers.md): what the last probe of the listing's mcp_url
// found (status and reason, the server, its tools), the changelog of its tool list, and a form whose POST sets,
// changes or removes the endpoint (the verb of PATCH /api/v1/sites/{site_id} with mcp_url).
import { html } from 'hono/html';
import type { McpOwnerView } from '../../../src/mcp-owner-schema';
import type { SubmissionRecord } from '../../../src/submissions/record-schemas';
import { csrfField, formatTime, type Html } from './layout';

/** What the person typed into the MCP endpoint form, and what was wrong with it, when the form comes back. */
export interface McpFormState {
  mcpUrl: string;
  error?: string;
}

/** Tools shown on the page; the record keeps up to MCP_MAX_TOOLS, the page names the rest by count. */
const TOOLS_SHOWN = 50;

const STATUS_WORDS: Record<McpOwnerView['status'], string> = {
  reachable: 'Reachable',
  unreachable: 'Not reachable',
  auth_required: 'Asks for credentials',
  unchecked: 'Not checked yet',
};

const names = (list: string[]) => list.map((name, i) => html`${i ? ', ' : ''}<code>${name}</code>`);

function changelog(mcp: McpOwnerView): Html {
  if (mcp.changelog.length === 0) return html`<p class="muted small" id="mcp-changelog-empty">None yet.</p>`;
  return html`<ol class="timeline" id="mcp-changelog">${mcp.changelog.map(
    (entry) =>
      html`<li><time datetime="${entry.changed_at}">${formatTime(entry.changed_at)}</time>${
        entry.added.length ? html` · added ${names(entry.added)}` : ''
      }${entry.removed.length ? html` · removed ${names(entry.removed)}` : ''}${
        entry.changed.length ? html` · re-described ${names(entry.changed)}` : ''
      }</li>`,
  )}</ol>`;
}

function tools(mcp: McpOwnerView): Html | '' {
  if (mcp.tools.length === 0) return '';
  const shown = mcp.tools.slice(0, TOOLS_SHOWN);
  const more = mcp.tool_count - shown.length;
  return html`<h3 id="mcp-tools-title">Tools${mcp.tools_seen_at ? html` <span class="muted small">(seen ${formatTime(mcp.tools_seen_at)})</span>` : ''}</h3>
<ul id="mcp-tools" aria-labelledby="mcp-tools-title">${shown.map(
    (tool) =>
      html`<li><code>${tool.name}</code>${tool.title ? html` · ${tool.title}` : ''}${tool.description ? html`: <span class="muted">${tool.description}</span>` : ''}</li>`,
  )}</ul>
${more > 0 ? html`<p class="muted small">and ${more} more.</p>` : ''}`;
}

function finding(mcp: McpOwnerView): Html {
  const server = [mcp.server.title ?? mcp.server.name, mcp.server.version && `version ${mcp.server.version}`]
    .filter(Boolean)
    .join(', ');
  return html`<p>Status: <strong id="mcp-status" data-status="${mcp.status}">${STATUS_WORDS[mcp.status]}</strong>${
    mcp.reason ? html` <span id="mcp-reason">${mcp.reason}</span>` : ''
  }</p>
<dl class="facts">
<dt>Endpoint</dt><dd><code>${mcp.url}</code></dd>
${server ? html`<dt>Server</dt><dd id="mcp-server">${server}</dd>` : ''}
${mcp.protocol_version ? html`<dt>Protocol</dt><dd>${mcp.protocol_version}, ${mcp.transport}</dd>` : ''}
${mcp.auth_issuer ? html`<dt>Sign-in at</dt><dd>${mcp.auth_issuer}</dd>` : ''}
<dt>Checked</dt><dd>${mcp.checked_at ? formatTime(mcp.checked_at) : 'not yet'}</dd>
</dl>
${tools(mcp)}
<h3>Changes of the tool list</h3>
${changelog(mcp)}`;
}

/** The section (submission-sections.ts): shown for a tool with an MCP endpoint, and to add one in review or live. */
export function mcpSection(record: SubmissionRecord, csrfToken: string, typed?: McpFormState): Html | '' {
  if (record.status === 'pending_payment') return '';
  const editable = record.status === 'live' || record.status === 'pending_review';
  if (!record.mcp_url && !editable) return '';
  const error = typed?.error;
  const form = editable
    ? html`<form method="post" action="/account/submissions/${record.site_id}/mcp" id="mcp-form" novalidate>${csrfField(csrfToken)}
<div class="field"><label for="mcp-url">MCP endpoint</label>
<input id="mcp-url" type="url" name="mcp_url" value="${typed?.mcpUrl ?? record.mcp_url ?? ''}" maxlength="2048" inputmode="url" autocomplete="off" placeholder="https://"${error ? html` aria-invalid="true" aria-describedby="mcp-url-error mcp-url-hint"` : html` aria-describedby="mcp-url-hint"`}>
${error ? html`<span class="field-error" id="mcp-url-error">${error}</span>` : ''}<span class="hint" id="mcp-url-hint">Checked in the background; empty removes it.</span></div>
<button type="submit" id="mcp-save">Save the MCP endpoint</button></form>`
    : '';
  return html`<section class="panel" id="mcp" aria-labelledby="mcp-title"><h2 id="mcp-title">MCP server</h2>
${record.mcp ? finding(record.mcp) : html`<p class="muted small">Has your tool a remote MCP server? Give its endpoint and we list its tools.</p>`}
${form}</section>`;
}
