// GET /about/checks – what the daily check of listed tools does: the page our user agent names (docs/health.md).
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { HEALTH_AGENT_TOKEN } from '../../src/health/check-site';
import type { AppEnv } from '../types';
import { renderPage } from './layout';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/about/checks', (c) => {
    const hideAfterDays = c.get('deps').config.health.hideAfterDays;
    return renderPage(c, {
      title: 'About our daily checks – tooldir',
      description: 'How tooldir checks that listed tools still answer, and how a site can opt out.',
      body: () => html`<article>
<h1>About our daily checks</h1>
<p>tooldir lists AI tools. About once a day it asks each listed tool's website for its home page, so readers do not
land on dead links. The request names itself with the user agent <code>${HEALTH_AGENT_TOKEN}-healthcheck</code> and a link to this page.</p>
<h2>What it does</h2>
<ul>
<li>One request for <code>/robots.txt</code> and one for the listed page, at most once a day per tool, each at its own time of day.</li>
<li>It sends <code>If-None-Match</code> and <code>If-Modified-Since</code>, so an unchanged page costs no body.</li>
<li>It follows redirects only within the site's own domain, and reads at most 2 MiB for at most 10 seconds.</li>
</ul>
<h2>Opting out</h2>
<p>Disallow <code>${HEALTH_AGENT_TOKEN}</code> in your <code>robots.txt</code> (<code>User-agent: ${HEALTH_AGENT_TOKEN}</code>, <code>Disallow: /</code>).
Your listing then shows as not checked; it is never treated as failing.</p>
<h2>What happens when a site does not answer</h2>
<p>After three failing days the owner is told. ${hideAfterDays > 0 ? `After ${hideAfterDays} days` : 'From the first failing check'} the listing leaves
search, categories and the home page, while its page stays with a notice. A site that leads to another domain is hidden at once.
The first check that finds it answering again brings it back; nothing is deleted.</p>
</article>`,
      cacheable: true,
    });
  });
}
