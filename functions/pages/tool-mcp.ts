// The tool page's MCP section (docs/registry-api.md): the listing's remote MCP server, what the last probe found (its
// tools, when they were last seen, or why not), and how to add it to an MCP host, each snippet with a copy button.
import { html } from 'hono/html';
import type { PublicMcp } from '../../src/directory/mcp-record';
import { mcpClientSnippets } from '../../src/directory/mcp-client-snippets';
import { formatTime } from '../../src/display-time';
import type { McpStatus } from '../../src/catalog/mcp-states';

/** The status in words, for every status but reachable (which lists the tools instead). */
const STATUS_WORDS: Record<Exclude<McpStatus, 'reachable'>, string> = {
  unchecked: 'not tried yet',
  unreachable: 'did not answer as an MCP server when last tried',
  auth_required: 'asks for sign-in',
};

function toolList(mcp: PublicMcp) {
  if (mcp.status !== 'reachable') return html`<p>This server ${STATUS_WORDS[mcp.status]}.</p>`;
  const seen = mcp.tools_seen_at
    ? html` Last seen <time datetime="${mcp.tools_seen_at}">${formatTime(mcp.tools_seen_at)}</time>.`
    : '';
  if (mcp.tools.length === 0) return html`<p>The server lists no tools.${seen}</p>`;
  return html`<p>${mcp.tools.length} ${mcp.tools.length === 1 ? 'tool' : 'tools'}.${seen}</p>
<ul class="mcp-tools">${mcp.tools.map(
    (t) =>
      html`<li><code>${t.name}</code>${t.title ? html` <strong>${t.title}</strong>` : ''}${t.description ? html`<br><span class="muted">${t.description}</span>` : ''}</li>`,
  )}</ul>`;
}

export function mcpSection(slug: string, mcp: PublicMcp | null) {
  if (!mcp) return '';
  return html`<section class="mcp" aria-labelledby="mcp-heading">
<h2 id="mcp-heading">MCP server</h2>
${toolList(mcp)}
<h3>Add to your client</h3>
${mcpClientSnippets(slug, mcp.url, mcp.transport).map(
  (s) => html`<div class="snippet"><p><strong>${s.host}</strong> <span class="muted">(${s.where})</span>
<button type="button" data-copy="mcp-${s.id}" hidden>Copy<span class="vh"> the ${s.host} snippet</span></button></p>
<pre id="mcp-${s.id}">${s.text}</pre></div>`,
)}
</section>`;
}
