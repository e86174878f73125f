// GET / – the public directory: the sponsored slot, then cards of the newest tools, 24 a page (docs/pages.md);
// links to every category with its count; a search box (GET /?q=).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { listCategories, type CategoryWithCount } from '../../src/categories/categories';
import type { ToolCard } from '../../src/directory/browse';
import { searchTools } from '../../src/directory/search';
import type { AppEnv } from '../types';
import { renderPage } from './layout';
import { refusedPublicPage } from './public-limit';
import { cardGrid } from './cards';
import { listingPage } from './listing';

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

/** GET /?q=: the directory search's relevance order (the same verb as REST and MCP), as cards. */
async function searchPage(c: Context<AppEnv>, q: string) {
  // A search counts against the per-IP public bucket like every search surface, and the limiter answers
  // before the search statement runs (../shared/spec/DECISIONS.md, Rate limits).
  const refused = await refusedPublicPage(c, 'searches');
  if (refused) return refused;
  const found = await searchTools({ deps: c.get('deps'), input: { query: q, limit: 50 } });
  // Search results carry no media; their cards show the placeholder (the tool page has the pictures).
  const tools: ToolCard[] = found.tools.map((t) => ({ ...t, image: null, icon: null }));
  return renderPage(c, {
    title: `“${q}” – tooldir`,
    description: DESCRIPTION,
    canonical: `${c.get('deps').origin}/`,
    cacheable: true,
    body: () => html`<h1>AI tools</h1>
${searchForm(q)}
${tools.length ? cardGrid(tools) : html`<p class="muted">No tool matches your search.</p>`}`,
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
