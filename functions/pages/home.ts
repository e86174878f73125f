// GET / – the public directory: the sponsored slot, then cards of the newest tools, 24 a page (docs/pages.md);
// links to every category with its count; a search box (GET /?q=, 24 results a page).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { listCategories, type CategoryWithCount } from '../../src/categories/categories';
import type { ToolCard } from '../../src/directory/tool-record';
import { BROWSE_PAGE_SIZE } from '../../src/directory/browse';
import { searchToolCards, type SearchPage, type SearchSuggestion } from '../../src/directory/search';
import { isServiceError } from '../../src/errors';
import type { AppEnv } from '../types';
import { renderPage } from './layout';
import { refusedPublicPage } from './public-limit';
import { cardGrid, pager } from './cards';
import { badCursorPage, listingPage } from './tool-card-pages';
import { declareImpressions } from '../middleware/count-listing-events';
import { homeReads, searchTerms } from '../middleware/page-cache-keys';

const TITLE = 'tooldir – a directory of AI tools';
const DESCRIPTION = 'A directory of AI tools, reviewed by editors.';

/** Every category that has a live tool, with its number of live tools, as links (an empty one leads nowhere). */
const categoryLinks = (categories: CategoryWithCount[]) => {
  const shown = categories.filter((c) => c.tool_count > 0);
  return shown.length
    ? html`<nav aria-label="Categories"><ul class="chips nav">${shown.map(
        (c) => html`<li><a href="/categories/${c.slug}">${c.name} <span class="count">${c.tool_count}</span></a></li>`,
      )}</ul></nav>`
    : '';
};

/** Results a search page shows: the listing's page size (a page of 50 cost twice the rendering and the reading). */
const SEARCH_PAGE_SIZE = BROWSE_PAGE_SIZE;

/** The link to a search for `q` (as typed when `asTyped`: no correction). */
const searchHref = (q: string, asTyped = false, hasMcp = false) =>
  `/?q=${encodeURIComponent(q)}${asTyped ? '&correct=false' : ''}${hasMcp ? '&has_mcp=true' : ''}`;

/** What an answer that had to correct the query says, with the way back to the words as typed. */
const correctedNotice = (suggestion: SearchSuggestion) =>
  html`<p class="notice" role="status">Showing results for <a href="${searchHref(suggestion.query)}"><strong>${suggestion.query}</strong></a>.
Search instead for <a href="${searchHref(suggestion.corrected_from, true)}">${suggestion.corrected_from}</a>.</p>`;

/** What an empty answer offers: the closest categories and the newest tools. */
const emptyAnswer = (found: SearchPage<ToolCard>) => html`<p>No tool matches your search. Try fewer or other words${
  found.closest_categories.length ? ', or browse a category close to it:' : '.'
}</p>
${
  found.closest_categories.length
    ? html`<nav aria-label="Closest categories"><ul class="chips nav">${found.closest_categories.map(
        (c) => html`<li><a href="/categories/${c.slug}">${c.name} <span class="count">${c.tool_count}</span></a></li>`,
      )}</ul></nav>`
    : ''
}
${found.newest_tools.length ? html`<h2>Newest tools</h2>${cardGrid(found.newest_tools)}` : html`<p><a href="/">Browse the newest tools</a>.</p>`}`;

/** GET /?q=: the directory search's relevance order (the same verb as REST and MCP), as cards, 24 a page. */
async function searchPage(c: Context<AppEnv>, q: string) {
  // A search counts against the per-IP public bucket like every search surface, and the limiter answers
  // before the search statement runs (docs/decisions.md, "Rate limits").
  const refused = await refusedPublicPage(c, 'searches');
  if (refused) return refused;
  // Read through the declared reads: the page cache keys on exactly these (functions/middleware/page-cache-keys.ts).
  const { cursor, correct, has_mcp } = homeReads(c);
  const asTyped = correct === 'false';
  const hasMcp = has_mcp === 'true';
  const first = searchHref(q, asTyped, hasMcp);
  let found: SearchPage<ToolCard>;
  try {
    found = await searchToolCards({
      deps: c.get('deps'),
      input: { query: q, limit: SEARCH_PAGE_SIZE, cursor, correct: !asTyped, has_mcp: hasMcp || undefined },
    });
  } catch (error) {
    if (isServiceError(error) && error.code === 'invalid_request') return badCursorPage(c, error.message, first);
    throw error;
  }
  const tools: ToolCard[] = found.tools;
  const next = found.next_cursor === null ? null : `${first}&cursor=${encodeURIComponent(found.next_cursor)}`;
  // One impression per card of this render, the offered newest tools too (docs/stats.md); kept with a cached page.
  declareImpressions(c, [...tools, ...found.newest_tools]);
  const count = `${tools.length === 1 ? '1 tool' : `${tools.length} tools`}${next || cursor ? ' on this page' : ''}`;
  return renderPage(c, {
    title: `“${q}” – tooldir`,
    description: DESCRIPTION,
    canonical: `${c.get('deps').origin}/`,
    pageLinks: { next: next && `${c.get('deps').origin}${next}` },
    query: q,
    cacheable: true,
    body: () => html`<h1>Search results for “${q}”</h1>
${found.suggestion ? correctedNotice(found.suggestion) : ''}
<p>${hasMcp ? html`Only tools with an MCP server. <a href="${searchHref(q, asTyped)}">Show all tools</a>` : html`<a href="${searchHref(q, asTyped, true)}">Only tools with an MCP server</a>`}</p>
${tools.length ? html`<h2 class="vh">Results</h2><p class="muted">${count}, best matches first.</p>${cardGrid(tools)}` : emptyAnswer(found)}
${pager({ prev: null, next })}`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/', async (c) => {
    const q = searchTerms(c);
    if (q) return searchPage(c, q);
    const refused = await refusedPublicPage(c, 'requests');
    if (refused) return refused;
    const { categories } = await listCategories({ deps: c.get('deps') });
    return listingPage(c, {
      basePath: '/',
      title: TITLE,
      description: DESCRIPTION,
      empty: 'No tools are listed yet.',
      listHeading: 'Newest tools',
      intro: () => html`<h1>AI tools, reviewed by editors</h1>
<p class="muted">Find the right AI tool, or <a href="/submit">list yours</a>.</p>
${categoryLinks(categories)}`,
    });
  });
}
