// GET /api/v1/tools – search the public directory of live tools (no key; limited per client IP)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, searchTools } from '../../../src/directory/search';
import { MAX_QUERY_LENGTH } from '../../../src/directory/search-terms';
import { searchPageSchema, toolSummarySchema } from '../../../src/directory/tool-schemas';
import { rateLimit } from '../../middleware/rate-limit';
import { describePolicy, describeRate } from '../../../src/rate-limits/describe';
import type { AppEnv } from '../../types';
import { cacheableAnswer } from '../../middleware/page-cache';
import { component } from '../schemas';
import { errorContent } from '../error-responses';

const limitMessage = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;

const query = z.object({
  q: z
    .string()
    .max(MAX_QUERY_LENGTH, { error: `q must be at most ${MAX_QUERY_LENGTH} characters` })
    .optional()
    .openapi({
      description:
        'Words to search for in tool names and descriptions; a typo in a name still matches. Empty: newest tools first',
      example: 'writing assistant',
    }),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: limitMessage })
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, { error: limitMessage })
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
  cursor: z
    .string()
    .optional()
    .openapi({ description: 'next_cursor of the previous page (opaque), with the same q and category' }),
  category: z.string().optional().openapi({
    description:
      'Only tools in this category (a slug from GET /api/v1/categories); with an empty q, the newest tools of the category. An unknown category is a 400',
    example: 'writing',
  }),
  correct: z
    .enum(['true', 'false'], { error: 'correct must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .openapi({
      type: 'boolean',
      default: true,
      description: 'false: search the words as typed, never a corrected query (the page’s “search instead for”)',
    }),
  verified: z.enum(['true', 'false'], { error: 'verified must be true or false' }).optional().openapi({
    description: 'true: only listings with the "Verified maker" mark (their owner proved the domain)',
    example: 'true',
  }),
  health: z.enum(['ok'], { error: 'health must be ok' }).optional().openapi({
    description:
      'ok: only tools whose last daily check of their website passed (docs/health.md). A page may then hold fewer than limit tools; next_cursor still continues the list',
  }),
  has_mcp: z.enum(['true', 'false'], { error: 'has_mcp must be true or false' }).optional().openapi({
    description:
      'true: only listings with a remote MCP server that answered its last probe (the tool record’s mcp.status reachable). A page may then hold fewer than limit tools; next_cursor still continues the list',
    example: 'true',
  }),
});

export const ToolSummary = component(toolSummarySchema, 'ToolSummary');
const ToolSearchPage = component(
  searchPageSchema.extend({ tools: z.array(ToolSummary), newest_tools: z.array(ToolSummary) }),
  'ToolSearchPage',
);

/** Errors every public (unauthenticated) directory endpoint can give. */
export const publicErrors = {
  429: errorContent(`More than ${describeRate('public')} from your address (code rate_limited); see Retry-After`),
  500: errorContent('Unexpected failure (code internal_error)'),
  503: errorContent('Temporarily unavailable (code service_unavailable); retry'),
};

const route = createRoute({
  method: 'get',
  path: '/api/v1/tools',
  operationId: 'searchTools',
  tags: ['Directory'],
  // Public: no key (an empty requirement, so no document-wide default could ever apply one).
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'Search live tools',
  description:
    'Full-text search over the names and descriptions of live tools and the names and synonyms of their categories, best ' +
    'match first (an exact name, then names with every word, then descriptions, then category matches; newest first among ' +
    'equal matches). When the words match no tool, a corrected query is searched instead (typos: one edit for words of 4 ' +
    'to 7 letters, two from 8) and suggestion says so; when nothing matches at all, closest_categories and newest_tools ' +
    'offer somewhere to go. Featured and sponsored tools are flagged, never ranked higher for it. ' +
    'Pass category to search within one category (an empty q then lists its newest tools). ' +
    `Up to ${MAX_PAGE_SIZE} per page; follow next_cursor for more. No key needed; ${describePolicy('public')}, shared with every search. ` +
    'The MCP tool search_tools returns the same data.',
  request: { query },
  responses: {
    200: {
      content: { 'application/json': { schema: ToolSearchPage } },
      description: 'One page of results (with an ETag; Cache-Control allows keeping it a minute)',
    },
    304: { description: 'Not modified: the page named by If-None-Match is still the answer' },
    400: errorContent('Invalid q, limit, cursor, correct or has_mcp, or an unknown category (code invalid_request)'),
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { q, limit, cursor, category, correct, verified, health, has_mcp } = c.req.valid('query');
    const page = await searchTools({
      deps: c.get('deps'),
      input: {
        query: q,
        limit,
        cursor,
        category,
        correct,
        verified: verified === 'true' ? true : undefined,
        health,
        has_mcp: has_mcp === 'true' ? true : undefined,
      },
    });
    // The same for every caller: kept by the page cache and by browsers (docs/pages.md "Caching"). The body is what
    // c.json(page, 200) would send (or a 304 to a client that holds it), so it is typed as that answer.
    return cacheableAnswer(c, JSON.stringify(page), 'application/json') as unknown as TypedResponse<
      typeof page,
      200,
      'json'
    >;
  });
}
