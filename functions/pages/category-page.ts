// GET /categories/{slug} – one category's name, description and live-tool count, then its cards, 24 a page
// with the home page's sponsored slot and pagination (docs/pages.md). An unknown slug is the 404 page.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { findCategory } from '../../src/categories/find-category';
import type { AppEnv } from '../types';
import { listingPage } from './tool-card-pages';
import { notFoundPage } from './not-found';
import { refusedPublicPage } from './public-limit';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/categories/:slug', async (c) => {
    const refused = await refusedPublicPage(c, 'requests');
    if (refused) return refused;
    const category = await findCategory(c.get('deps'), c.req.param('slug'));
    if (!category) return notFoundPage(c);
    const count = `${category.tool_count} tool${category.tool_count === 1 ? '' : 's'}`;
    return listingPage(c, {
      basePath: `/categories/${category.slug}`,
      category: category.slug,
      title: `${category.name} – AI tools on tooldir`,
      description: category.description ?? `${category.name}: ${count} in the tooldir directory of AI tools.`,
      empty: 'No tools in this category yet.',
      listHeading: `Newest in ${category.name}`,
      intro: () => html`<p class="muted"><a href="/">All tools</a></p>
<h1>${category.name}</h1>
${category.description ? html`<p>${category.description}</p>` : ''}
<p class="muted">${count}</p>`,
    });
  });
}
