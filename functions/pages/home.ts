// GET / – the public directory: the sponsored slot, then cards of the newest tools, 24 a page (docs/pages.md);
// links to every category with its count; a search box (GET /?q=).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { listCategories, type CategoryWithCount } from '../../src/categories/categories';
import type { ToolCard } from '../../src/directory/tool-record';
import { searchToolCards } from '../../src/directory/search';
import { isServiceError } from '../../src/errors';
import type { AppEnv } from '../types';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import { renderPage } from './layout';
import { cardGrid } from './cards';
import { listingPage } from './listing';
import { declareImpressions } from '../middleware/count-listing-events';

/** A search past the per-IP limit: a page (not JSON), never cached, saying when to retry. */
function tooManySearchesPage(c: Context<AppEnv>, retryAfterSeconds: number) {
  c.header('Retry-After', String(retryAfterSeconds));
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Too many searches – tooldir',
    description: 'Too many searches from your address.',
    status: 429,
    body: () => html`<h1>Too many searches</h1>
<p role="alert">Too many searches from your address. Please try again in ${retryAfterSeconds} s.</p>
<p><a href="/">Back to the directory</a></p>`,
  });
}

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

/** GET /?q=: the directory search's relevance order (the same verb as REST and MCP), as cards. */
async function searchPage(c: Context<AppEnv>, q: string) {
  // A search counts against the per-IP public bucket like every search surface, and the limiter answers
  // before the search statement runs (../shared/spec/DECISIONS.md, Rate limits). The plain listing does not.
  try {
    await enforceRateLimit(c, 'public', clientIp(c));
  } catch (error) {
    if (isServiceError(error) && error.code === 'rate_limited') return tooManySearchesPage(c, error.details.retryAfterSeconds ?? 1);
    throw error;
  }
  const found = await searchToolCards({ deps: c.get('deps'), input: { query: q, limit: 50 } });
  const tools: ToolCard[] = found.tools;
  c.header('Cache-Control', 'public, max-age=60');
  declareImpressions(c, tools); // one impression per result card of this render (docs/stats.md)
  return renderPage(c, {
    title: `“${q}” – tooldir`,
    description: DESCRIPTION,
    canonical: `${c.get('deps').origin}/`,
    query: q,
    body: () => html`<h1>Search results for “${q}”</h1>
${tools.length ? html`<h2 class="vh">Results</h2><p class="muted">${tools.length === 1 ? '1 tool' : `${tools.length} tools`}, best matches first.</p>${cardGrid(tools)}` : html`<p>No tool matches your search. Try fewer or other words, or <a href="/">browse the newest tools</a>.</p>`}`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/', async (c) => {
    const q = (c.req.query('q') ?? '').trim().slice(0, 100);
    if (q) return searchPage(c, q);
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
