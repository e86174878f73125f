// GET /api/v1/tools/{slug} – one live tool of the public directory (no key; limited per client IP)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { getTool } from '../../src/directory/get-tool';
import { toolDetailSchema } from '../../src/directory/tool-schemas';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { component } from './schemas';
import { errorContent } from './error-responses';
import { publicErrors } from './tools-search';

const ToolDetail = component(toolDetailSchema, 'ToolDetail');

const route = createRoute({
  method: 'get',
  path: '/api/v1/tools/{slug}',
  operationId: 'getTool',
  tags: ['Directory'],
  // Public: no key (an empty requirement, so no document-wide default could ever apply one).
  security: [],
  summary: 'Get one live tool',
  description:
    'The listing of a live tool by its slug (the last part of its live_url). No key needed. The MCP tool get_tool returns the same data.',
  request: { params: z.object({ slug: z.string().openapi({ example: 'acme-writer' }) }) },
  responses: {
    200: { content: { 'application/json': { schema: ToolDetail } }, description: 'The tool' },
    404: errorContent('No live tool with this slug (code not_found)'),
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const slug = c.req.valid('param').slug;
    await enforceRateLimit(c, 'public', clientIp(c));
    const tool = await getTool({ deps: c.get('deps'), input: { slug } });
    return c.json(tool, 200);
  });
}
