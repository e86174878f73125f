// PATCH /api/v1/sites/{site_id} – file an edit of one of the caller's live tools (an editor approves it), or fix a failed crawl's url
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../../src/rate-limits/describe';
import { editSite } from '../../../src/submissions/edit';
import { DESCRIPTION_MAX } from '../../../src/submissions/edit-input';
import { requireApiKey } from '../../middleware/api-key-auth';
import { jsonObjectBody } from '../../middleware/json-body';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { EditRequest, SiteRecord, bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';
import { BODY_LIMIT_TEXT } from '../../../src/body-limit';
import { MAX_RETRIES_PER_DAY } from '../../../src/catalog/retry-limit';

const route = createRoute({
  method: 'patch',
  path: '/api/v1/sites/{site_id}',
  operationId: 'editSite',
  tags: ['Submissions'],
  summary: 'Propose a new name or description for one of your live tools, or fix the address of a failed crawl',
  description:
    'Files an edit of one of your live tools: `name` (the rules of submit, and no other tool may hold the name) and/or ' +
    `\`description\` (plain text, 1 to ${DESCRIPTION_MAX} characters). The public page and GET /api/v1/tools/{slug} keep ` +
    'the current text until an editor approves; the record shows the proposal as `pending_edit`, and the outcome of the ' +
    'latest decided edit as `last_edit` (with the reason of a rejection). A new edit replaces a pending one. The slug ' +
    'never changes. **Fixing a failed crawl:** `url` alone, for a submission in status crawl_failed, replaces its address ' +
    '(the URL rules and duplicate check of submit) and queues it again at once, without paying again; it counts as a ' +
    `retry (at most ${MAX_RETRIES_PER_DAY} a day, POST /api/v1/sites/{site_id}/retry). ` +
    '`mcp_url` (null removes it) changes at once, without an editor, and is probed in the background (`mcp`). ' +
    `Counts against the submit bucket (${describePolicy('submit')}).`,
  security: bearerSecurity,
  middleware: [requireApiKey, jsonObjectBody, rateLimit('submit')] as const,
  request: {
    params: z.object({
      site_id: z.string().openapi({ format: 'uuid', example: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a' }),
    }),
    body: { required: true, content: { 'application/json': { schema: EditRequest } } },
  },
  responses: {
    202: {
      content: { 'application/json': { schema: SiteRecord } },
      description:
        'Edit filed: the site record with pending_edit; for mcp_url, the record with its new mcp_url; or, for url, the site record queued again with its new url',
    },
    400: errorContent(
      'Invalid body: none of name, description, mcp_url and url, url with another field, or a field breaks its rule (codes invalid_request, invalid_json)',
    ),
    404: errorContent('No submission with this id, or not yours (code not_found)'),
    409: errorContent(
      'The submission is not live, or for url not crawl_failed (code invalid_state; the message names its status), another ' +
        'submission holds the name or the url (code already_submitted; the message names the listing and its page), or ' +
        'another edit of the tool was filed at the same instant (code conflict)',
    ),
    413: errorContent(`Body larger than ${BODY_LIMIT_TEXT}`),
    ...keyedErrors,
    429: errorContent(
      `Rate limit exceeded, or (url) this submission was already retried ${MAX_RETRIES_PER_DAY} times today (code rate_limited); see Retry-After`,
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    const record = await editSite({
      deps: c.get('deps'),
      actor,
      input: { ...c.req.valid('json'), site_id: c.req.valid('param').site_id },
    });
    return c.json(record, 202);
  });
}
