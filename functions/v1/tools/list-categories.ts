// GET /api/v1/categories – the directory's categories with their live tool counts (no key; limited per client IP)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { listCategories } from '../../../src/categories/categories';
import { categoryListSchema, categoryWithCountSchema } from '../../../src/categories/category-schemas';
import { describePolicy } from '../../../src/rate-limits/describe';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { component } from '../schemas';
import { publicErrors } from './search-tools';

// Named through component() (zod's own .meta), so the shared schemas need no OpenAPI extension loaded.
const CategoryWithCount = component(categoryWithCountSchema, 'CategoryWithCount');
const CategoryList = component(categoryListSchema.extend({ categories: z.array(CategoryWithCount) }), 'CategoryList');

const route = createRoute({
  method: 'get',
  path: '/api/v1/categories',
  operationId: 'listCategories',
  tags: ['Directory'],
  // Public: no key (an empty requirement, so no document-wide default could ever apply one).
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'List categories',
  description:
    'Every category of the directory by name, with the number of live tools in it. Filter a search by one with ' +
    `GET /api/v1/tools?category={slug}. No key needed; ${describePolicy('public')}, shared with every search. ` +
    'The MCP tool list_categories returns the same data.',
  responses: {
    200: { content: { 'application/json': { schema: CategoryList } }, description: 'The categories' },
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    return c.json(await listCategories({ deps: c.get('deps') }), 200);
  });
}
