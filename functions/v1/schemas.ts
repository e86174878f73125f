import { z } from '@hono/zod-openapi';
import { submitInputSchema } from '../../src/submissions/submit-input';
import { defaultPlan } from '../../src/catalog/plans';
import {
  crawlErrorSchema,
  pendingRecordSchema,
  queuedResponseSchema,
  siteListSchema,
  siteRecordSchema,
  siteDetailSchema,
  historyStepSchema,
  queuePositionSchema,
} from '../../src/submissions/record-schemas';
import { lastEditSchema, pendingEditSchema } from '../../src/submissions/edit-record';

// Response and request schemas of the REST contract; openapi.json is generated from them.

export const SubmitRequest = submitInputSchema
  .extend({
    name: submitInputSchema.shape.name.openapi({
      description: 'Tool display name, 2 to 100 characters',
      example: 'Acme Writer',
    }),
    url: submitInputSchema.shape.url.openapi({
      description:
        'Tool website URL (http or https). Stored and answered as a URL parser reads it (`HTTPS://Acme.example` is ' +
        '`https://acme.example/`); a backslash, a tab or line break, or other than two slashes after the scheme is refused.',
      example: 'https://acme-writer.example',
    }),
    email: submitInputSchema.shape.email.openapi({
      description: "Contact for review notifications; defaults to the account's e-mail",
    }),
    plan: submitInputSchema.shape.plan.openapi({
      description:
        'Optional. Left out: `basic` for a new submission, and the plan of the record that waits for payment when the URL is re-submitted. `pro` and `sponsored` are the same plan',
      example: defaultPlan,
    }),
    categories: submitInputSchema.shape.categories.openapi({
      description:
        'Optional: up to 3 distinct category slugs from GET /api/v1/categories; an unknown slug is a 400 that names it. Editors may change them at review',
      example: ['writing', 'productivity'],
    }),
    mcp_url: submitInputSchema.shape.mcp_url.openapi({
      description: "Optional: the tool's remote MCP endpoint (the rules of `url`), probed with the crawl (`mcp`)",
      example: 'https://acme-writer.example/mcp',
    }),
  })
  .openapi('SubmitRequest');

/**
 * Names a schema as a component of openapi.json (zod's own `id` metadata, which the generator reads as the
 * component name). Not `.openapi(name)`: that method exists only on schemas made after @hono/zod-openapi has
 * loaded, and the core's schemas (src/) may be made before it.
 */
export const component = <T extends z.ZodType>(schema: T, name: string): T => schema.meta({ id: name });

// The submission bodies are declared once in src/submissions/record-schemas.ts; here they get their component
// names. A component nested in another is re-pointed at its named form, so openapi.json refers to it by name.
export const QueuedResponse = component(queuedResponseSchema, 'QueuedResponse');
export const PendingPaymentRecord = component(pendingRecordSchema, 'PendingPaymentRecord');
// The component keeps the description openapi.json has always shown for it (the site record's crawl_error field).
export const CrawlError = component(
  crawlErrorSchema.describe('Only when status is crawl_failed: why the crawl failed'),
  'CrawlError',
);
export const SiteRecord = component(
  siteRecordSchema.extend({
    crawl_error: CrawlError.optional(),
    pending_edit: component(pendingEditSchema, 'PendingEdit').optional(),
    last_edit: component(lastEditSchema, 'LastEdit').optional(),
  }),
  'SiteRecord',
);
export const ListEnvelope = component(
  siteListSchema.extend({
    sites: z
      .array(SiteRecord)
      .describe('Site records without history and queue position: read one submission for those'),
  }),
  'SiteList',
);
// The detail read's site record: SiteRecord plus history and queue position (docs/submission-progress.md).
export const HistoryStep = component(historyStepSchema, 'HistoryStep');
export const QueuePosition = component(queuePositionSchema, 'QueuePosition');
export const SiteDetail = component(
  siteDetailSchema.extend({
    crawl_error: CrawlError.optional(),
    history: z.array(HistoryStep).describe(siteDetailSchema.shape.history.description ?? ''),
    queue: QueuePosition.optional().describe(siteDetailSchema.shape.queue.description ?? ''),
  }),
  'SiteDetail',
);

export const bearerSecurity = [{ apiKey: [] as string[] }];

export { EditRequest } from './edit-schemas';
