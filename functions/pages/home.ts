// GET / – the public directory: the sponsored slot, then cards of the newest tools, 24 a page (docs/pages.md);
// links to every category with its count; a search box (GET /?q=, 24 results a page).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { listCategories, type CategoryWithCount } from '../../src/categories/categories';
import { BROWSE_PAGE_SIZE, type ToolCard } from '../../src/directory/browse';
import { isServiceError } from '../../src/errors';
import { searchTools } from '../../src/directory/search';
import type { AppEnv } from '../types';
import { renderPage } from './layout';
import { refusedPublicPage } from './public-limit';
import { cardGrid, pager } from './cards';
import { badCursorPage, listingPage } from './listing';

const TITLE = 'tooldir – a directory of AI tools';
const DESCRIPTION = 'A directory of AI tools, reviewed by editors.';

const searchForm = (q: string) =>
  html`<form class="search" method="get" action="/" role="search"><input type="search" name="q" value="${q}" placeholder="Search tools" aria-label="Search tools"> <button type="submit">Search</button></form>`;

/** Every category with its number of live tools, as links. */
const categoryLinks = (categories: CategoryWithCount[]) =>
  categories.length
    ? html`<nav aria-label="Categories"><ul class="chips nav">${categories.map(
        (c) => html`<li><a href="/categories/${c.slug}">${c.name} <span class="muted">${c.tool_count}</span></a></li>`,
      )}</ul></nav>`
    : '';

/** Results a search page shows: the listing's page size (a page of 50 cost twice the rendering and the reading). */
const SEARCH_PAGE_SIZE = BROWSE_PAGE_SIZE;

/** GET /?q=: the directory search's relevance order (the same verb as REST and MCP), as cards, 24 a page. */
async function searchPage(c: Context<AppEnv>, q: string) {
  // A search counts against the per-IP public bucket like every search surface, and the limiter answers
  // before the search statement runs (../shared/spec/DECISIONS.md, Rate limits).
  const refused = await refusedPublicPage(c, 'searches');
  if (refused) return refused;
  const first = `/?q=${encodeURIComponent(q)}`;
  let found;
  try {
    found = await searchTools({ deps: c.get('deps'), input: { query: q, limit: SEARCH_PAGE_SIZE, cursor: c.req.query('cursor') } });
  } catch (error) {
    if (isServiceError(error) && error.code === 'invalid_request') return badCursorPage(c, error.message, first);
    throw error;
  }
  // Search results carry no media; their cards show the placeholder (the tool page has the pictures).
  const tools: ToolCard[] = found.tools.map((t) => ({ ...t, image: null, icon: null }));
  const next = found.next_cursor === null ? null : `${first}&cursor=${encodeURIComponent(found.next_cursor)}`;
  return renderPage(c, {
    title: `“${q}” – tooldir`,
    description: DESCRIPTION,
    canonical: `${c.get('deps').origin}/`,
    pageLinks: { next: next && `${c.get('deps').origin}${next}` },
    cacheable: true,
    body: () => html`<h1>AI tools</h1>
${searchForm(q)}
${tools.length ? cardGrid(tools) : html`<p class="muted">No tool matches your search.</p>`}
${pager({ prev: null, next })}`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/', async (c) => {
    const q = (c.req.query('q') ?? '').trim().slice(0, 100);
    if (q) return searchPage(c, q);
    const refused = await refusedPublicPage(c, 'requests');
    if (refused) return refused;
    const { categories } = await listCategories({ deps: c.get('deps') });
    return listingPage(c, {
      basePath: '/',
      title: TITLE,
      description: DESCRIPTION,
      empty: 'No tools are listed yet.',
      intro: () => html`<h1>AI tools</h1>
${searchForm('')}
${categoryLinks(categories)}`,
    });
  });
}
