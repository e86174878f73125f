// GET /api/v1/tools/{slug} – one live tool of the public directory (no key; limited per client IP)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { getTool } from '../../../src/directory/get-tool';
import { toolDetailSchema } from '../../../src/directory/tool-schemas';
import { rateLimit } from '../../middleware/rate-limit';
import { ServiceError } from '../../../src/errors';
import { slugFate, withdrawnError } from '../../../src/directory/slug-history';
import { movedLocation, redirectTo } from '../../pages/slug-fate';
import type { AppEnv } from '../../types';
import { component } from '../schemas';
import { errorContent } from '../error-responses';
import { publicErrors } from './search-tools';

export const ToolDetail = component(toolDetailSchema, 'ToolDetail');

const route = createRoute({
  method: 'get',
  path: '/api/v1/tools/{slug}',
  operationId: 'getTool',
  tags: ['Directory'],
  // Public: no key (an empty requirement, so no document-wide default could ever apply one).
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'Get one live tool',
  description:
    'The listing of a live tool by its slug (the last part of its live_url). No key needed. The MCP tool get_tool returns the same data.',
  request: { params: z.object({ slug: z.string().openapi({ example: 'acme-writer' }) }) },
  responses: {
    200: { content: { 'application/json': { schema: ToolDetail } }, description: 'The tool' },
    301: {
      description:
        "An old slug of a renamed tool: Location is the tool's current address (/api/v1/tools/{its slug}); slugs are never given to another tool",
      headers: z.object({ Location: z.string().openapi({ example: '/api/v1/tools/acme-writer-pro' }) }),
    },
    404: errorContent('No live tool with this slug (code not_found)'),
    410: errorContent('A listing its owner withdrew (code gone); it is not coming back under this slug'),
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const slug = c.req.valid('param').slug;
    const tool = await getTool({ deps: c.get('deps'), input: { slug } }).catch(async (error: unknown) => {
      const fate =
        error instanceof ServiceError && error.code === 'not_found' ? await slugFate(c.get('deps'), slug) : undefined;
      if (fate?.kind === 'withdrawn') throw withdrawnError(fate);
      if (fate?.kind === 'moved') return movedLocation(c, (to) => `/api/v1/tools/${to}`, fate.slug);
      throw error;
    });
    if (typeof tool === 'string') return redirectTo(c, tool) as never;
    return c.json(tool, 200);
  });
}
