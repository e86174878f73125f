// GET /api/v1/docs/assets/{file} – the reference UI's script on Node. On Workers the same path is a static asset
// (wrangler.toml [assets]) answered before the Worker runs, so this route only answers names that do not exist.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ServiceError } from '../../../src/errors';
import type { AppEnv, DocsAssetSource } from '../../types';
import { rateLimit } from '../../middleware/rate-limit';
import { DOCS_ASSETS_PREFIX, IMMUTABLE_CACHE } from './reference-ui';

export function register(app: OpenAPIHono<AppEnv>, source: DocsAssetSource | undefined) {
  app.use(`${DOCS_ASSETS_PREFIX}*`, rateLimit('public'));
  app.get(`${DOCS_ASSETS_PREFIX}:file`, async (c) => {
    const asset = source ? await source(c.req.param('file')) : null;
    if (!asset) throw new ServiceError('not_found', 'No such file.');
    // The name carries the package version (reference-ui.ts): a year of caching, no revalidation.
    return c.body(asset.body, 200, { 'Content-Type': asset.contentType, 'Cache-Control': IMMUTABLE_CACHE });
  });
}
