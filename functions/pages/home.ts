// GET / – the public directory: sponsored slot first, featured badges, newest; a search box (GET /?q=)
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { listLiveTools, type PublicTool } from '../../src/directory/live-tools';
import { searchTools } from '../../src/directory/search';
import { isServiceError } from '../../src/errors';
import type { AppEnv } from '../types';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import { renderPage } from './layout';
import { toolItem } from './tool-list';

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

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/', async (c) => {
    const q = (c.req.query('q') ?? '').trim().slice(0, 100);
    // A search counts against the per-IP public bucket like every search surface, and the limiter answers
    // before the search statement runs (../shared/spec/DECISIONS.md, Rate limits). The plain listing does not.
    if (q) {
      try {
        await enforceRateLimit(c, 'public', clientIp(c));
      } catch (error) {
        if (isServiceError(error) && error.code === 'rate_limited') return tooManySearchesPage(c, error.details.retryAfterSeconds ?? 1);
        throw error;
      }
    }
    // With a query the page shows the directory search's relevance order (the same verb as REST and MCP).
    const tools: Array<Pick<PublicTool, 'slug' | 'name' | 'description' | 'icon' | 'is_feature' | 'is_sponsor'>> = q
      ? (await searchTools({ deps: c.get('deps'), input: { query: q, limit: 50 } })).tools.map((t) => ({ ...t, slug: t.slug, icon: null }))
      : await listLiveTools(c.get('deps'));
    const sponsored = q ? [] : tools.filter((t) => t.is_sponsor).slice(0, 3);
    const rest = tools.filter((t) => !sponsored.includes(t));
    c.header('Cache-Control', 'public, max-age=60');
    return renderPage(c, {
      title: q ? `“${q}” – tooldir` : 'tooldir – a directory of AI tools',
      description: 'A directory of AI tools, reviewed by editors.',
      canonical: `${c.get('deps').origin}/`,
      body: () => html`<h1>AI tools</h1>
<form class="search" method="get" action="/" role="search"><input type="search" name="q" value="${q}" placeholder="Search tools" aria-label="Search tools"> <button type="submit">Search</button></form>
${sponsored.length ? html`<section class="sponsored" aria-label="Sponsored"><h2>Sponsored</h2><ul class="tools">${sponsored.map(toolItem)}</ul></section>` : ''}
${rest.length ? html`<ul class="tools">${rest.map(toolItem)}</ul>` : html`<p class="muted">${q ? 'No tool matches your search.' : 'No tools are listed yet.'}</p>`}`,
    });
  });
}
