import { html } from 'hono/html';
import type { ToolCard } from '../../src/directory/tool-record';
import { placeholderImage } from '../../src/media/placeholder';
import type { Html } from './layout';
import { badges, outboundRel } from './tool-list';
import { outboundPath } from './outbound';

// Tool cards of the home and category pages (docs/pages.md). Every value is escaped by hono/html; images are
// our own /media/ copies or a generated data: placeholder, so a card never loads anything from another origin.

/** The share-image size: a placeholder drawn at it fills the card's 40:21 frame like a real og:image. */
const COVER = { width: 1200, height: 630 };

/** The card's picture: the tool's image, else its icon (shown at its own size), else its placeholder. */
function cardImage(tool: ToolCard, eager: boolean): Html {
  const loading = eager ? 'eager' : 'lazy';
  if (tool.image) return html`<img src="${tool.image}" alt="" width="240" height="126" loading="${loading}">`;
  if (tool.icon)
    return html`<img class="logo" src="${tool.icon}" alt="" width="240" height="126" loading="${loading}">`;
  return html`<img src="${placeholderImage(tool.name, COVER)}" alt="" width="240" height="126" loading="${loading}">`;
}

/** One card: picture, name (to its page), badges, a one-line description, the outbound link, category chips. */
export function toolCard(tool: ToolCard, eager = false): Html {
  return html`<li class="card">${cardImage(tool, eager)}<div><h3><a href="/tools/${tool.slug}">${tool.name}</a>${badges(tool)}</h3>
${tool.description ? html`<p>${tool.description}</p>` : ''}<p class="small"><a href="${outboundPath(tool.slug)}" rel="${outboundRel(tool)}" target="_blank">Visit ${tool.name}</a></p>${
    tool.categories.length
      ? html`<ul class="chips">${tool.categories.map((c) => html`<li><a href="/categories/${c.slug}">${c.name}</a></li>`)}</ul>`
      : ''
  }</div></li>
`;
}

/** The cards as a responsive grid; the first row's pictures load at once, the rest when scrolled to. */
export function cardGrid(tools: readonly ToolCard[]): Html {
  return html`<ul class="cards">${tools.map((tool, i) => toolCard(tool, i < 3))}</ul>`;
}

/** Visible Previous/Next links (the head carries the same as <link rel>). */
export function pager(links: { prev: string | null; next: string | null }): Html {
  if (!links.prev && !links.next) return html``;
  return html`<nav class="pager" aria-label="Pages">${links.prev ? html`<a rel="prev" href="${links.prev}">← Previous</a>` : html`<span></span>`}${
    links.next ? html`<a rel="next" href="${links.next}">Next →</a>` : ''
  }</nav>`;
}

/** schema.org ItemList of the cards as shown (docs/seo.md): position from 1, absolute URL of each tool page. */
export function itemList(origin: string, name: string, tools: readonly ToolCard[]): object {
  return {
    '@type': 'ItemList',
    name,
    numberOfItems: tools.length,
    itemListElement: tools.map((tool, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      url: `${origin}/tools/${tool.slug}`,
      name: tool.name,
    })),
  };
}
