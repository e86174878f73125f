// GET /tools/{slug} – a live tool's public page (this is the site's live_url)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { getLiveTool } from '../../src/directory/live-tools';
import { softwareApplicationLd } from '../../src/directory/software-application';
import { toolUrl } from '../../src/directory/sitemap';
import { isSlug } from '../../src/pipeline/slug';
import type { AppEnv } from '../types';
import { refusedPublicPage } from './public-limit';
import { renderPage, safeUrl } from './layout';
import { outboundPath } from './outbound';
import { formatDate } from './account/layout';
import { notFoundPage } from './not-found';
import { answerSlugFate } from './slug-fate';
import { badges, iconSource, outboundRel } from './tool-list';
import { badgeEmbedBox, COPY_SCRIPT } from './badge-embed';
import { healthNotice, checkedLine } from './tool-health';
import { mcpSection } from './tool-mcp';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/tools/:slug', async (c) => {
    const refused = await refusedPublicPage(c, 'requests');
    if (refused) return refused;
    const slug = c.req.param('slug');
    const tool = isSlug(slug) ? await getLiveTool(c.get('deps'), slug) : undefined;
    if (!tool) return (isSlug(slug) && (await answerSlugFate(c, slug, (to) => `/tools/${to}`))) || notFoundPage(c);
    // Visits go through our outbound link (counted as a click, docs/stats.md); it redirects to this very URL.
    const href = safeUrl(tool.url) && outboundPath(tool.slug);
    const description = tool.description ?? tool.title ?? `${tool.name} on tooldir`;
    return renderPage(c, {
      title: `${tool.name} – tooldir`,
      description,
      // The same address the sitemap lists (src/directory/sitemap.ts), on the configured origin.
      canonical: toolUrl(c.get('deps').origin, tool.slug),
      // Images are our own /media/ copies (same origin); og:image needs the copy's absolute URL.
      image: tool.image && `${c.get('deps').origin}${tool.image}`,
      ogType: 'article',
      // Hidden by the re-check (docs/health.md): reachable, with a notice, and not for search engines.
      noindex: tool.hidden,
      jsonLd: [softwareApplicationLd(tool, c.get('deps').origin)],
      body: () => html`${healthNotice(tool)}<article>
<h1><img class="avatar" src="${iconSource(tool)}" alt="" width="48" height="48">${tool.name}${badges(tool)}</h1>
${tool.description ? html`<p>${tool.description}</p>` : ''}
${href ? html`<p><a class="button primary" href="${href}" rel="${outboundRel(tool)}" target="_blank">Visit ${tool.name}</a></p>` : ''}
${tool.image ? html`<p><img class="shot" src="${tool.image}" alt="${`Preview of ${tool.name}`}"></p>` : ''}
${tool.categories.length ? html`<h2 class="vh">Categories</h2><ul class="chips nav" aria-label="Categories">${tool.categories.map((cat) => html`<li><a href="/categories/${cat.slug}">${cat.name}</a></li>`)}</ul>` : ''}
<p class="muted">Listed since ${formatDate(tool.published_at)}.${checkedLine(tool, c.get('deps').now())}</p>
</article>
${mcpSection(tool.slug, tool.mcp)}
${badgeEmbedBox(tool, c.get('deps').origin)}`,
      script: COPY_SCRIPT,
      cacheable: true,
    });
  });
}
