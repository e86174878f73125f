import { html } from 'hono/html';
import type { PublicTool } from '../../src/directory/live-tools';
import { placeholderImage } from '../../src/media/placeholder';
import { safeUrl, type Html } from './layout';

/** The badges a tool earned by its plan. */
export function badges(tool: Pick<PublicTool, 'is_feature' | 'is_sponsor'>): Html {
  return html`${tool.is_sponsor ? html`<span class="badge sponsor">Sponsored</span>` : ''}${tool.is_feature ? html`<span class="badge">Featured</span>` : ''}`;
}

/** Featured and sponsored tools paid for a followed link; every other outbound link is nofollow. */
export const outboundRel = (tool: Pick<PublicTool, 'is_feature' | 'is_sponsor'>) =>
  tool.is_feature || tool.is_sponsor ? 'noopener' : 'noopener nofollow';

/** The tool's icon: our own /media/ copy, else its generated placeholder (never the tool's server, never broken). */
export function iconSource(tool: Pick<PublicTool, 'name' | 'icon'>): string {
  return tool.icon ?? placeholderImage(tool.name);
}
