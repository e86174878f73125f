// GET /api/v1/openapi.json – the OpenAPI 3.1 document (the reference UI at /api/v1/docs reads it: docs-page.ts)
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../types';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import { describeApiLimits } from '../../src/rate-limits/describe';

export const OPENAPI_PATH = '/api/v1/openapi.json';

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
}
