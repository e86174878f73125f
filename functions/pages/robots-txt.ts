// GET /robots.txt – what crawlers may fetch, and where the sitemap is (docs/seo.md)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { robotsTxt } from '../../src/directory/robots';
import type { AppEnv } from '../types';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.text(robotsTxt(c.get('deps').origin));
  });
}
