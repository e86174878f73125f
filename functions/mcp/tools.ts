import { z } from 'zod';
import { searchTools, searchInputSchema, MAX_PAGE_SIZE } from '../../src/directory/search';
import { getToolFollowingRenames } from '../../src/directory/slug-history';
import { searchPageSchema, toolDetailSchema } from '../../src/directory/tool-schemas';
import { listCategories } from '../../src/categories/categories';
import { categoryListSchema } from '../../src/categories/category-schemas';
import { submitSiteIdempotently } from '../../src/idempotency/submit';
import { idempotencyKeySchema } from '../../src/idempotency/key';
import { submitInputSchema } from '../../src/submissions/submit-input';
import { findSubmissionByUrl, getSubmission } from '../../src/submissions/get';
import { canonicalUrl, readSubmittedUrl, urlNotices } from '../../src/submissions/url';
import { ServiceError } from '../../src/errors';
import { describePolicy } from '../../src/rate-limits/describe';
import type { McpCaller } from './caller';
import { defineTool, type ToolDescriptor } from './define-tool';

export type { ToolDescriptor };
import { siteStatusOutputSchema, submitOutputSchema } from './output-schemas';
import { editSiteTool, retrySiteTool } from './site-action-tools';
import { getSiteStatsTool } from './stats-tools';
import { withdrawSiteTool } from './withdraw-tool';
import { claimSiteTool, verifyDomainTool } from './ownership-tools';
import { aliasesOf, defaultPlan, planKinds, planPrices, type PlanKind } from '../../src/catalog/plans';

/** The monthly plan, named in the submit tool's words. */
const recurringPlan = planKinds.find((kind) => planPrices[kind].recurring) as PlanKind;

/**
 * The directory tools are the REST directory endpoints' twins: they count against the client IP's public
 * bucket, key or no key, and the limiter answers before the search runs (docs/decisions.md, "Rate limits").
 */
const limitDirectoryRead = (caller: McpCaller) => caller.limit('public', caller.clientIp);

export const searchToolsTool = defineTool({
  name: 'search_tools',
  title: 'Search the AI tool directory',
  description:
    'Search the live tools of the directory. Matching: every word of `query` must appear in the tool name or ' +
    'description, or name one of its categories (a category name word or synonym: "transcription" finds Audio tools) ' +
    '(English stemming, so "writing" finds "writer"; the last word may be a prefix). When the words ' +
    'match no tool, a corrected query is searched instead (one edit for words of 4 to 7 letters, two from 8), so a typo like ' +
    '"chatgtp" still finds "ChatGPT Helper", and `suggestion` says so ({query, corrected_from}): tell the user. When nothing ' +
    'matches at all, `closest_categories` and `newest_tools` offer somewhere to go. Results are ordered by ' +
    'relevance: an exact name first, then names with every word, then descriptions, then category matches, newest first ' +
    'among equal matches; is_feature/is_sponsor are flags only and do not change the order. `correct: false` searches the ' +
    'words as typed. An ' +
    'empty query lists the newest tools. `category` (a slug from list_categories) keeps only tools in that category, ' +
    'with or without a query. Each result carries its categories. ' +
    `Up to ${MAX_PAGE_SIZE} per page (default 20); pass next_cursor back ` +
    'as `cursor` with the same query for the next page. Call get_tool with a result slug for full details. No API key needed; ' +
    `${describePolicy('public')}, shared with the REST directory endpoints.`,
  auth: 'none',
  scope: 'tools:read',
  readOnly: true,
  inputSchema: searchInputSchema.extend({
    query: searchInputSchema.shape.query.describe('Words to search for; empty or omitted lists the newest tools'),
    limit: searchInputSchema.shape.limit.describe(`Results per page, 1 to ${MAX_PAGE_SIZE} (default 20)`),
    cursor: searchInputSchema.shape.cursor.describe(
      'next_cursor from the previous page of the same query and category',
    ),
    category: searchInputSchema.shape.category.describe(
      'Only tools in this category: a slug from list_categories. With no query, lists the newest tools of the category. An unknown slug is invalid_request',
    ),
    correct: searchInputSchema.shape.correct.describe(
      'false: search the words as typed, never a corrected query (default true)',
    ),
    has_mcp: searchInputSchema.shape.has_mcp.describe(
      'true: only tools whose remote MCP server answered its last probe (a page may then hold fewer than limit)',
    ),
  }),
  outputSchema: searchPageSchema,
  async run(caller, input) {
    await limitDirectoryRead(caller);
    return searchTools({ deps: caller.deps, input });
  },
});

export const getToolTool = defineTool({
  name: 'get_tool',
  title: 'Get a listed tool',
  description:
    'Full details of one live tool in the directory: name, website url, description, image, icon, featured / ' +
    'sponsored flags, its public page (live_url), when it was published, and its remote MCP server (mcp: url, ' +
    'status, transport and the tools it lists) when it has one. Pass exactly one of `slug` (from ' +
    'search_tools results or the end of a live_url) or `site_id` (e.g. from submit_site, once that submission is ' +
    'live). An old slug of a renamed tool answers the tool under its current slug; a listing its owner withdrew is ' +
    'gone. Tools that are not live (still in review, rejected, unknown) are reported as not_found. No API key needed; ' +
    `${describePolicy('public')}, shared with search_tools.`,
  auth: 'none',
  scope: 'tools:read',
  readOnly: true,
  inputSchema: z.object({
    slug: z
      .string({ error: 'slug must be a string' })
      .max(200, { error: 'slug must be at most 200 characters' })
      .optional()
      .describe('The tool slug'),
    site_id: z
      .string({ error: 'site_id must be a string' })
      .max(100, { error: 'site_id must be a UUID' })
      .optional()
      .describe('The tool site_id (UUID)'),
  }),
  outputSchema: toolDetailSchema,
  async run(caller, input) {
    if ((input.slug === undefined) === (input.site_id === undefined)) {
      throw new ServiceError('invalid_request', 'slug or site_id: pass exactly one of them.');
    }
    await limitDirectoryRead(caller);
    // An old slug of a renamed tool answers the tool under its current slug; a withdrawn listing is gone.
    return getToolFollowingRenames({
      deps: caller.deps,
      input: input.slug !== undefined ? { slug: input.slug } : { site_id: input.site_id! },
    });
  },
});

export const listCategoriesTool = defineTool({
  name: 'list_categories',
  title: 'List the directory categories',
  description:
    'Every category of the directory (slug, name, description) with the number of live tools in it, by name. ' +
    'Pass a slug as `category` to search_tools to browse or search one category, or in `categories` (up to 3) to ' +
    `submit_site. No API key needed; ${describePolicy('public')}, shared with search_tools.`,
  auth: 'none',
  scope: 'tools:read',
  readOnly: true,
  inputSchema: z.object({}),
  outputSchema: categoryListSchema,
  async run(caller) {
    await limitDirectoryRead(caller);
    return listCategories({ deps: caller.deps });
  },
});

export const submitSiteTool = defineTool({
  name: 'submit_site',
  title: 'Submit a tool to the directory',
  description:
    'Submit an AI tool (name + website url) to the directory for the account of the API key (needs Authorization: ' +
    `Bearer <key>). Same rules and limits as POST /api/v1/submit-site (${describePolicy('submit')}, shared by all its keys). Two normal ` +
    'outcomes: status "queued" (covered by the membership quota; crawling and editorial review follow) or status ' +
    '"pending_payment": then the submission is NOT queued yet — show checkout_url to the user and ask them to open ' +
    'it and pay before expires_at (24 hours); `reason` says why payment is needed. After payment it is queued ' +
    'automatically with the same site_id. Submitting the same unpaid url again gives a fresh link. Follow progress ' +
    'with get_site_status. Errors: already_submitted (url or name already in the directory), invalid_request ' +
    '(names the field), unauthorized, rate_limited (says when to retry), idempotency_key_reused (the key was used ' +
    'with other arguments), idempotency_in_progress (the first call with that key is still running: retry shortly).',
  auth: 'api_key',
  scope: 'sites:submit',
  readOnly: false,
  inputSchema: submitInputSchema.extend({
    name: submitInputSchema.shape.name.describe('Tool display name, 2 to 100 characters'),
    url: submitInputSchema.shape.url.describe(
      'Tool website URL (http or https; a bare host such as acme.com gets https://, and the answer says so in notices)',
    ),
    email: submitInputSchema.shape.email.describe("Contact for review notifications; defaults to the account's e-mail"),
    plan: submitInputSchema.shape.plan.describe(
      `${planKinds.slice(0, -1).join(', ')}, or ${recurringPlan} (= ${aliasesOf(recurringPlan).join(', ')}, a monthly subscription). ` +
        `Left out: ${defaultPlan}, or the plan of the unpaid record when the URL is re-submitted`,
    ),
    categories: submitInputSchema.shape.categories.describe(
      'Optional: up to 3 distinct category slugs from list_categories (e.g. ["writing", "productivity"]); an unknown slug is an invalid_request naming it. Editors may change them at review',
    ),
    mcp_url: submitInputSchema.shape.mcp_url.describe(
      "Optional: the tool's remote MCP endpoint (the rules of url); get_site_status shows what was found (mcp)",
    ),
    idempotency_key: idempotencyKeySchema('idempotency_key')
      .optional()
      .describe(
        'Optional, recommended: a fresh random value (e.g. a UUID) per intended submission, sent again unchanged when ' +
          'retrying after a lost answer. Within 24 hours the retry gets the first result again (same site_id, same ' +
          'checkout_url) and nothing is created twice. Same semantics as the REST Idempotency-Key header.',
      ),
  }),
  outputSchema: submitOutputSchema,
  async run(caller, { idempotency_key: idempotencyKey, ...input }, sent) {
    const actor = await caller.actor();
    await caller.limit('submit', actor.accountId);
    const result = await submitSiteIdempotently({ deps: caller.deps, actor, input, idempotencyKey });
    // As REST: what was read otherwise than sent (a bare host got https://), in the answer's words.
    const notices = urlNotices((sent as { url?: unknown } | undefined)?.url);
    return notices.length ? { ...result.body, notices } : result.body;
  },
});

export const getSiteStatusTool = defineTool({
  name: 'get_site_status',
  title: 'Check one of your submissions',
  description:
    'The status of one of your own submissions (needs the API key): the same body as GET /api/v1/sites/{site_id}. ' +
    'Pass exactly one of `site_id` (from submit_site) or `url`. Statuses: pending_payment (carries checkout_url ' +
    'to show the user), queued, crawling, pending_review, live (carries live_url; then get_tool finds it), ' +
    'rejected, crawl_failed. By url, a submission past payment is found first, else an unpaid one. ' +
    "Another account's submission or an unknown one is not_found.",
  auth: 'api_key',
  scope: 'sites:read',
  readOnly: true,
  inputSchema: z.object({
    site_id: z
      .string({ error: 'site_id must be a string' })
      .max(100, { error: 'site_id must be a UUID' })
      .optional()
      .describe('The site_id returned by submit_site'),
    url: z
      .string({ error: 'url must be a string' })
      .max(2048, { error: 'url must be at most 2048 characters' })
      .optional()
      .describe('The submitted website URL (compared in canonical form)'),
  }),
  outputSchema: siteStatusOutputSchema,
  async run(caller, input) {
    if ((input.site_id === undefined) === (input.url === undefined)) {
      throw new ServiceError('invalid_request', 'site_id or url: pass exactly one of them.');
    }
    const actor = await caller.actor();
    await caller.limit('read', actor.accountId);
    if (input.site_id !== undefined)
      return getSubmission({ deps: caller.deps, actor, input: { siteId: input.site_id } });
    const check = readSubmittedUrl(input.url!);
    if (!check.ok) throw new ServiceError('invalid_request', `url: ${check.message}`, { field: 'url' });
    return findSubmissionByUrl({ deps: caller.deps, actor, input: { canonicalUrl: canonicalUrl(check.url) } });
  },
});

/** Every tool the MCP server offers, in the order hosts list them. */
export const mcpTools: ToolDescriptor[] = [
  searchToolsTool,
  getToolTool,
  listCategoriesTool,
  submitSiteTool,
  getSiteStatusTool,
  retrySiteTool,
  editSiteTool,
  getSiteStatsTool,
  withdrawSiteTool,
  verifyDomainTool,
  claimSiteTool,
];
