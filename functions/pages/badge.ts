// GET /badge/{slug}.svg – the "Listed on tooldir" badge tool makers embed on their own sites.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { BADGE_THEMES, renderBadge, type BadgeTheme } from '../../src/directory/badge';
import { getTool, notFound as notLive } from '../../src/directory/get-tool';
import { ServiceError } from '../../src/errors';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { slugFate, withdrawnError } from '../../src/directory/slug-history';
import { movedLocation, redirectTo } from './slug-fate';

function parseTheme(value: string | undefined): BadgeTheme {
  if (value === undefined || value === '') return 'light';
  if ((BADGE_THEMES as readonly string[]).includes(value)) return value as BadgeTheme;
  throw new ServiceError('invalid_request', `theme must be one of: ${BADGE_THEMES.join(', ')}.`, { field: 'theme' });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/badge/:file', async (c) => {
    // The limiter answers before the lookup: past it, a 429 (the error body, Retry-After) that runs no statement
    // and counts no badge load. A refusal or an error is kept by no browser or shared cache: the next load asks again.
    c.header('Cache-Control', 'no-store');
    await enforceRateLimit(c, 'badges', clientIp(c));
    const file = c.req.param('file');
    if (!file.endsWith('.svg')) throw notLive();
    const theme = parseTheme(c.req.query('theme'));
    // getTool answers not_found for anything that is not live (pending, rejected, taken down, unknown). An old slug of
    // a renamed tool answers 301 to its current badge, which is the load that counts (docs/stats.md); a withdrawn
    // listing's badge is 410.
    const slug = file.slice(0, -'.svg'.length);
    const tool = await getTool({ deps: c.get('deps'), input: { slug } }).catch(async (error: unknown) => {
      const fate =
        error instanceof ServiceError && error.code === 'not_found' ? await slugFate(c.get('deps'), slug) : undefined;
      if (fate?.kind === 'withdrawn') throw withdrawnError(fate);
      if (fate?.kind === 'moved') return movedLocation(c, (to) => `/badge/${to}.svg`, fate.slug);
      throw error;
    });
    if (typeof tool === 'string') return redirectTo(c, tool);
    // An hour: a tool that becomes featured (or is taken down) shows it on embedding sites within the hour.
    c.header('Cache-Control', 'public, max-age=3600');
    // The SVG carries no script and loads nothing; its only styling is the inline style attribute of its text.
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    c.header('Content-Type', 'image/svg+xml; charset=utf-8');
    return c.body(renderBadge({ name: tool.name, is_feature: tool.is_feature, theme }));
  });
}
