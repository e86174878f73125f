// GET / – the public directory: sponsored slot first, featured badges, newest; a search box (GET /?q=)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { listLiveTools, type PublicTool } from '../../src/pipeline/public-tools';
import { searchTools } from '../../src/directory/search';
import type { AppEnv } from '../types';
import { renderPage } from './layout';
import { toolItem } from './tool-list';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/', async (c) => {
    const q = (c.req.query('q') ?? '').trim().slice(0, 100);
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
