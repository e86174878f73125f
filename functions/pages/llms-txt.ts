// GET /llms.txt – a text index of the service for agents
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../types';
import { rateLimit } from '../middleware/rate-limit';
import { describeApiLimits } from '../../src/rate-limits/describe';
import { planChoicesText, pricingLines } from '../../src/submissions/plan-words';
import { membershipTiers } from '../../src/catalog/plans';
import { MAX_RETRIES_PER_DAY } from '../../src/catalog/retry-limit';
import type { Config } from '../../src/config';

const text = (origin: string, limits: Config['dailyLimits']) => `# tooldir – AI Tool Directory

> A directory of AI tools. Members submit a tool (name + website URL); covered members are queued at once,
> anyone else receives a hosted checkout link. Paid and queued submissions are crawled, reviewed by an
> editor and published as a public tool page.

## REST API (base ${origin}/api/v1)
- POST /api/v1/submit-site (alias POST /api/v1/sites): submit {name, url, email?, plan?, categories?}; plan is ${planChoicesText()}; categories is up to 3 distinct category slugs (an unknown one is a 400 naming it). 201 queued, or 402 with a pending-payment record carrying checkout_url (show it to the user), 409 already submitted. Send an Idempotency-Key header (a fresh UUID) and resend it unchanged after a lost answer: the repeat gets the first answer (same site_id and checkout_url, Idempotent-Replayed: true) and nothing is created twice; another body with that key is 422 idempotency_key_reused, a repeat while the first runs is 409 idempotency_in_progress (Retry-After).
- GET /api/v1/sites?limit=&offset=&url=: your submissions, newest first (unpaid ones excluded).
- GET /api/v1/sites/{site_id}: one submission (also unpaid pending ones, with checkout_url).
- GET /api/v1/tools?q=&category=&limit=&cursor=, GET /api/v1/tools/{slug}: public directory search and detail (no key); each tool carries categories [{slug, name}]. category keeps only tools in that category (an empty q lists its newest tools; an unknown category is a 400).
- GET /api/v1/categories: every category {slug, name, description, tool_count} (live tools only; no key).
- POST /api/v1/membership/checkout {tier: ${membershipTiers.join(' | ')}}: a checkout link for a membership (covered submits need no payment).
- OpenAPI 3.1: ${origin}/api/v1/openapi.json · API reference (HTML): ${origin}/api/v1/docs · interactive explorer: ${origin}/api/v1/docs/explorer

## Plans and prices (${origin}/pricing)
${pricingLines(limits).join('\n')}

## Public pages
${origin}/ (the directory), ${origin}/categories/{slug} and ${origin}/tools/{slug} (a live tool's live_url); ${origin}/sitemap.xml lists them all. Tool pages carry JSON-LD (schema.org SoftwareApplication).
People buy a listing at ${origin}/pricing and submit at ${origin}/submit (sign-in by e-mail code; the same rules as the API).

## Authentication
Authorization: Bearer <API key>. Keys (tdk_...) are created on the API keys page of the account area (${origin}/account), shown once, revocable. Never put a key in a URL.

## Limits
${describeApiLimits()} RateLimit-Limit / -Remaining / -Reset headers; Retry-After on 429. Members have a daily quota per UTC day (reported as quota.used_today / daily_limit).

## Submission states
pending_payment → queued → crawling → pending_review → live (live_url) | rejected; crawling may end in crawl_failed (its crawl_error {code, message} says why, e.g. "timed out"); after fixing the site, POST /api/v1/sites/{site_id}/retry queues it again (${MAX_RETRIES_PER_DAY} times a day).

## MCP
Streamable HTTP at ${origin}/api/mcp/mcp. Tools: search_tools {query?, category?}, get_tool and list_categories (no key); submit_site, get_site_status, retry_site and edit_site (bearer key).
Hosts that connect by URL and sign in with OAuth use ${origin}/mcp (discovery: ${origin}/.well-known/oauth-protected-resource/mcp); it also accepts API keys.

## Errors
{"error":{"code","message"}} with codes invalid_request, invalid_json, unauthorized, not_found, method_not_allowed, already_submitted, invalid_state, idempotency_in_progress, idempotency_key_reused, rate_limited, plan_unavailable, checkout_failed.
`;

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/llms.txt', rateLimit('public'), (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.text(text(c.get('deps').origin, c.get('deps').config.dailyLimits));
  });
}
