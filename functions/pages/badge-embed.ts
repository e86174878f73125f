// The tool page's "Embed the badge" box: the snippet a tool maker pastes on their site, and its copy button.
import { html } from 'hono/html';
import { badgeLabel } from '../../src/directory/badge';

export { COPY_SCRIPT } from './shell/copy-button';

/** What the box needs of a live tool (its live_url is set when it is published; the fallback is the same page). */
type BadgedTool = { slug: string; live_url: string | null; is_feature: boolean };

/** The badge's own address for a slug (served by functions/pages/badge.ts). */
export const badgePath = (slug: string) => `/badge/${encodeURIComponent(slug)}.svg`;

/** The HTML a tool maker pastes: the badge image linking back to the tool's page. Plain text, shown escaped. */
export function badgeSnippet(tool: BadgedTool, origin: string): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const page = tool.live_url ?? `${origin}/tools/${encodeURIComponent(tool.slug)}`;
  return `<a href="${attr(page)}"><img src="${attr(`${origin}${badgePath(tool.slug)}`)}" alt="${badgeLabel(tool)}" height="28"></a>`;
}

export function badgeEmbedBox(tool: BadgedTool, origin: string) {
  return html`<section class="embed">
<h2>Embed the badge</h2>
<p><img src="${badgePath(tool.slug)}" alt="${badgeLabel(tool)}" height="28"></p>
<label for="badge-snippet" class="muted">Is this your tool? Show that it is listed: paste this HTML on your site.</label>
<textarea id="badge-snippet" class="embed" rows="3" readonly>${badgeSnippet(tool, origin)}</textarea>
<button type="button" data-copy="badge-snippet" hidden>Copy</button>
</section>`;
}
