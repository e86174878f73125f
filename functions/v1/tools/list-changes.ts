// GET /api/v1/changes – the change feed of every listing, oldest first (no key; limited per client IP)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import { DEFAULT_CHANGES_PAGE, listChanges, MALFORMED, MAX_CHANGES_PAGE } from '../../../src/directory/changes';
import { changesPageSchema, listingChangeSchema } from '../../../src/directory/change-schemas';
import { LISTING_CHANGE_RETENTION_DAYS } from '../../../src/catalog/listing-change-kinds';
import { describePolicy } from '../../../src/rate-limits/describe';
import { rateLimit } from '../../middleware/rate-limit';
import { cacheableAnswer } from '../../middleware/page-cache';
import type { AppEnv } from '../../types';
import { component } from '../schemas';
import { errorContent } from '../error-responses';
import { publicErrors } from './search-tools';
import { ToolDetail } from './get-tool';

/** Kept anywhere, revalidated on every use (ETag). */
export const CHANGES_CACHE_CONTROL = 'public, no-cache';

const limitMessage = `limit must be an integer from 1 to ${MAX_CHANGES_PAGE}`;

const query = z.object({
  since: z.string().max(64, { error: MALFORMED }).optional().openapi({
    description:
      'A cursor (next_cursor of the previous page, or an entry’s cursor): the entries after it. now: no entries, and a next_cursor at the newest change, to follow from. Omitted: from the oldest change kept',
    example: 'now',
  }),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: limitMessage })
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_CHANGES_PAGE, { error: limitMessage })
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: MAX_CHANGES_PAGE, default: DEFAULT_CHANGES_PAGE }),
});

const ListingChange = component(listingChangeSchema.extend({ tool: ToolDetail.nullable() }), 'ListingChange');
const ChangesPage = component(changesPageSchema.extend({ changes: z.array(ListingChange) }), 'ChangesPage');

const route = createRoute({
  method: 'get',
  path: '/api/v1/changes',
  operationId: 'listChanges',
  tags: ['Directory'],
  // Public: no key (an empty requirement, so no document-wide default could ever apply one).
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'Follow every change of the directory',
  description:
    'Every listing that appeared, changed (a public field) or left the directory, oldest first, each with the listing ' +
    'as it is now. Start with since=now (or without since, from the oldest change kept) after reading the listings from ' +
    'GET /api/v1/tools, then poll with since=next_cursor: every change is served once, in order, even when the ' +
    'transactions that wrote them committed out of order (an entry is served only once no older transaction is still ' +
    `running). Changes are kept ${LISTING_CHANGE_RETENTION_DAYS} days; a cursor older than that, malformed, or from the ` +
    `future is a 400 that says which: resync from GET /api/v1/tools. No key needed; ${describePolicy('public')}, shared ` +
    'with every search. See docs/change-feed.md.',
  request: { query },
  responses: {
    200: {
      content: { 'application/json': { schema: ChangesPage } },
      description:
        'One page of the feed (with an ETag; Cache-Control lets any cache keep it and revalidate it on each use)',
    },
    304: { description: 'Not modified: the page named by If-None-Match is still the answer' },
    400: errorContent(
      'since is malformed, from the future or older than the changes kept, or limit is invalid (code invalid_request; the message says which and to resync from GET /api/v1/tools)',
    ),
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { since, limit } = c.req.valid('query');
    const page = await listChanges({ deps: c.get('deps'), input: { since, limit } });
    // The same for every caller, so any cache may keep it, but must ask again before each use (a 304 when nothing
    // changed): entries carry the listing as it is now, and a page kept from before could hand a mirror an older
    // record than one it already applied.
    return cacheableAnswer(
      c,
      JSON.stringify(page),
      'application/json',
      CHANGES_CACHE_CONTROL,
    ) as unknown as TypedResponse<typeof page, 200, 'json'>;
  });
}
