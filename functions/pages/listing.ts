import type { Context } from 'hono';
import { html } from 'hono/html';
import { browseTools, type BrowsePage } from '../../src/directory/browse';
import { isServiceError } from '../../src/errors';
import type { AppEnv } from '../types';
import { renderPage, type Html } from './layout';
import { cardGrid, itemList, pager } from './cards';
import { declareImpressions } from '../middleware/count-listing-events';
import { listingReads } from '../middleware/page-cache-keys';

// The paged card listing shared by the home page and /categories/{slug} (docs/pages.md): reads ?after= or
// ?before=, renders the sponsored slot, the cards, Previous/Next links and the ItemList, or a 400 page for a
// cursor that is not one of ours.

export interface ListingView {
  /** The list's first page: `/` or `/categories/{slug}`. */
  basePath: string;
  category?: string;
  /** Title and meta description of the first page; later pages say that they are later pages. */
  title: string;
  description: string;
  /** What comes before the cards (heading, search box, category links). */
  intro: () => Html;
  /** The text when the list has no tool at all. */
  empty: string;
  /** The heading above the cards (h2, after the sponsored slot's). */
  listHeading: string;
}

/** A page link of ours that is malformed or forged: a page (never a 5xx), never cached, with a way back. */
export function badCursorPage(c: Context<AppEnv>, message: string, basePath: string) {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Bad page link – tooldir',
    description: 'This page link is not valid.',
    status: 400,
    body: () => html`<h1>Bad page link</h1>
<p role="alert">${message}</p>
<p><a href="${basePath}">Go to the first page</a></p>`,
  });
}

const linkTo = (basePath: string, name: 'after' | 'before', cursor: string | null) =>
  cursor === null ? null : `${basePath}?${name}=${encodeURIComponent(cursor)}`;

export async function listingPage(c: Context<AppEnv>, view: ListingView): Promise<Response> {
  const deps = c.get('deps');
  // Read through the declared reads: the page cache keys on exactly these (functions/middleware/page-cache-keys.ts).
  const { after, before } = listingReads(c);
  let page: BrowsePage;
  try {
    page = await browseTools({ deps, input: { category: view.category, after, before } });
  } catch (error) {
    if (isServiceError(error) && error.code === 'invalid_request')
      return badCursorPage(c, error.message, view.basePath);
    throw error;
  }
  // Going back reached the newest tools: the first page has one address (its content may have grown since).
  if (page.atStart) return c.redirect(view.basePath, 302);

  const first = after === undefined && before === undefined;
  // A paginated page's canonical is itself, cursor included (the default canonical drops the query).
  const self = first
    ? view.basePath
    : (linkTo(view.basePath, after !== undefined ? 'after' : 'before', (after ?? before)!) as string);
  const links = { prev: linkTo(view.basePath, 'before', page.prev), next: linkTo(view.basePath, 'after', page.next) };
  const shown = [...page.sponsored, ...page.tools];
  declareImpressions(c, shown); // one impression per card of this render (docs/stats.md); kept with a cached page
  return renderPage(c, {
    title: first ? view.title : `More: ${view.title}`,
    description: view.description,
    canonical: `${deps.origin}${self}`,
    pageLinks: { prev: links.prev && `${deps.origin}${links.prev}`, next: links.next && `${deps.origin}${links.next}` },
    jsonLd: shown.length ? [itemList(deps.origin, view.title, shown)] : [],
    cacheable: true,
    body: () => html`${view.intro()}
${page.sponsored.length ? html`<section class="sponsored" aria-label="Sponsored"><h2>Sponsored</h2>${cardGrid(page.sponsored)}</section>` : ''}
${page.tools.length ? html`<h2>${view.listHeading}</h2>${cardGrid(page.tools)}` : page.sponsored.length ? '' : html`<p class="muted">${first ? view.empty : 'No more tools here.'}</p>`}
${pager(links)}`,
  });
}
