// POST /api/v1/admin/categories, PATCH and DELETE /api/v1/admin/categories/{slug} – operators manage categories
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { createCategory, deleteCategory, updateCategory } from '../../src/categories/categories';
import { categoryDescriptionSchema, categoryNameSchema, categorySlugSchema } from '../../src/categories/category-rules';
import { categorySchema } from '../../src/categories/category-schemas';
import { ServiceError } from '../../src/errors';
import { requireOperator } from '../middleware/operator-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { errorContent } from '../v1/error-responses';
import { component } from '../v1/schemas';
import type { AppEnv } from '../types';

const security = [{ operatorToken: [] as string[] }];
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const errors = { 401: errorContent('Wrong or missing operator token'), 429: errorContent('Rate limited') };
const params = z.object({ slug: z.string().openapi({ description: 'The category slug', example: 'writing' }) });

const Category = component(categorySchema, 'Category');

const NewCategory = z
  .object({
    slug: categorySlugSchema('slug').openapi({ example: 'image-editing' }),
    name: categoryNameSchema.openapi({ example: 'Image editing' }),
    description: categoryDescriptionSchema
      .optional()
      .openapi({ example: 'Retouching, background removal, upscaling.' }),
  })
  .openapi('NewCategory');

const CategoryChange = z
  .object({
    name: categoryNameSchema.optional(),
    description: categoryDescriptionSchema.optional().openapi({ description: 'null or "" removes the description' }),
  })
  .openapi('CategoryChange');

const createRouteDef = createRoute({
  method: 'post',
  path: '/api/v1/admin/categories',
  operationId: 'createCategory',
  tags: ['Operator'],
  summary: 'Create a category',
  security,
  middleware: [requireOperator, jsonObjectBody] as const,
  request: { body: { required: true, ...json(NewCategory) } },
  responses: {
    201: { ...json(Category), description: 'Created' },
    400: errorContent('Invalid slug, name or description (code invalid_request)'),
    409: errorContent('The slug is taken (code conflict)'),
    ...errors,
  },
});

const updateRouteDef = createRoute({
  method: 'patch',
  path: '/api/v1/admin/categories/{slug}',
  operationId: 'updateCategory',
  tags: ['Operator'],
  summary: 'Rename a category or change its description (the slug stays)',
  security,
  middleware: [requireOperator, jsonObjectBody] as const,
  request: { params, body: { required: true, ...json(CategoryChange) } },
  responses: {
    200: { ...json(Category), description: 'Updated' },
    400: errorContent('Invalid name or description, or neither given (code invalid_request)'),
    404: errorContent('No such category (code not_found)'),
    ...errors,
  },
});

const deleteRouteDef = createRoute({
  method: 'delete',
  path: '/api/v1/admin/categories/{slug}',
  operationId: 'deleteCategory',
  tags: ['Operator'],
  summary: 'Delete a category no tool is in',
  security,
  middleware: [requireOperator] as const,
  request: { params },
  responses: {
    204: { description: 'Deleted' },
    404: errorContent('No such category (code not_found)'),
    409: errorContent(
      'Tools (in any status) are still in the category (code conflict); review them with other categories first',
    ),
    ...errors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(createRouteDef, async (c) => {
    const { slug, name, description } = c.req.valid('json');
    return c.json(
      await createCategory({ deps: c.get('deps'), input: { slug, name, description: description ?? null } }),
      201,
    );
  });
  app.openapi(updateRouteDef, async (c) => {
    const input = c.req.valid('json');
    if (input.name === undefined && input.description === undefined) {
      throw new ServiceError('invalid_request', 'Give name and/or description to change.');
    }
    return c.json(await updateCategory({ deps: c.get('deps'), slug: c.req.valid('param').slug, input }), 200);
  });
  app.openapi(deleteRouteDef, async (c) => {
    await deleteCategory({ deps: c.get('deps'), slug: c.req.valid('param').slug });
    return c.body(null, 204);
  });
}
