// GET /api/v1/docs/try – the reference page's "Try it" forms: a plain GET form cannot fill a path parameter or leave
// out an empty field, so it comes here and is redirected (303) to the operation's own URL, on this origin only.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ServiceError } from '../../../src/errors';
import type { AppEnv } from '../../types';
import { rateLimit } from '../../middleware/rate-limit';
import { endpointsOf, isTryable, parametersOf, type ApiDocument } from '../../pages/api-reference/openapi-model';
import { TRY_PATH } from '../../pages/api-reference/operation-view';
import { openApiDocument } from './openapi';

export function register(app: OpenAPIHono<AppEnv>) {
  app.use(TRY_PATH, rateLimit('public'));
  app.get(TRY_PATH, async (c) => {
    const doc = (await openApiDocument(app, c.get('deps').origin, c.env)) as ApiDocument;
    const tryable = endpointsOf(doc).filter(isTryable);
    const endpoint = tryable.find((e) => e.op.operationId === c.req.query('op'));
    if (!endpoint)
      throw new ServiceError(
        'invalid_request',
        `op must be one of ${tryable.map((e) => e.op.operationId).join(', ')}.`,
        { field: 'op' },
      );
    let url = endpoint.path;
    const query = new URLSearchParams();
    for (const p of parametersOf(doc, endpoint.op)) {
      const value = c.req.query(p.name)?.trim();
      if (p.in === 'query' && value) query.set(p.name, value);
      if (p.in !== 'path') continue;
      if (!value) throw new ServiceError('invalid_request', `${p.name} is required.`, { field: p.name });
      // Encoded dots too: `..` stays a value of the segment and never climbs out of the operation's path.
      url = url.replace(`{${p.name}}`, encodeURIComponent(value).replaceAll('.', '%2E'));
    }
    const search = String(query);
    return c.redirect(search ? `${url}?${search}` : url, 303);
  });
}
