// GET /api/v1/openapi.json – the OpenAPI 3.1 document; GET /api/v1/docs – the interactive reference
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../types';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import { describeApiLimits } from '../../src/rate-limits/describe';

export const OPENAPI_PATH = '/api/v1/openapi.json';

const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>tooldir API reference</title></head>
<body><script id="api-reference" data-url="${OPENAPI_PATH}"></script>
<script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference@1"></script>
<noscript>The interactive reference needs JavaScript. The raw document is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
</body></html>`;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (tdk_...) from the account area: Authorization: Bearer <key>',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (ADMIN_TOKEN)',
  });
  // Unauthenticated endpoints share the per-IP `public` policy.
  app.use(OPENAPI_PATH, (c, next) => enforceRateLimit(c, 'public', clientIp(c)).then(next));
  app.use('/api/v1/docs', (c, next) => enforceRateLimit(c, 'public', clientIp(c)).then(next));
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'tooldir – AI Tool Directory API',
      version: '1.0.0',
      description:
        'Submit AI tools to the directory and track your submissions. Every error body is ' +
        '`{"error":{"code","message"}}`. ' +
        `${describeApiLimits()} RateLimit-* headers on every limited response; Retry-After on 429.`,
    },
    servers: [{ url: c.get('deps').origin, description: 'This server' }],
  }));
  app.get('/api/v1/docs', (c) => {
    c.header(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline' 'unsafe-eval'; style-src 'self' https://cdn.jsdelivr.net https://fonts.googleapis.com 'unsafe-inline'; font-src https://fonts.gstatic.com https://cdn.jsdelivr.net data:; img-src 'self' data: https:; connect-src 'self'",
    );
    return c.html(docsPage);
  });
}
