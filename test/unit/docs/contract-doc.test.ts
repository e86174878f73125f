// docs/contract.md copies a few tables of the code for its readers; each copy is compared with its table here, so a
// new error code, a changed price or quota, a new rate-limit policy, status or limit cannot leave the contract
// stale, and every operation openapi.json declares is described there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../functions/app';
import { openApiDocument } from '../../../functions/v1/docs/openapi';
import { MAX_ACTIVE_KEYS } from '../../../src/accounts/api-keys';
import { CHECKOUT_LIFETIME_MS } from '../../../src/adapters/payments/types';
import { BODY_LIMIT_TEXT } from '../../../src/body-limit';
import { MAX_CATEGORIES_PER_TOOL } from '../../../src/categories/category-rules';
import { siteStatuses } from '../../../src/catalog/site-statuses';
import type { Deps } from '../../../src/deps';
import { MAX_PAGE_SIZE } from '../../../src/directory/search';
import { errorStatus } from '../../../src/errors';
import { IDEMPOTENCY } from '../../../src/idempotency/key';
import { describeRate } from '../../../src/rate-limits/describe';
import { rateLimitPolicies, type RateLimitPolicy } from '../../../src/rate-limits/policies';
import { MAX_STATS_DAYS } from '../../../src/stats/stats-schemas';
import { DESCRIPTION_MAX } from '../../../src/submissions/edit-input';
import { NAME_MAX, NAME_MIN } from '../../../src/submissions/name';
import { amountText } from '../../../src/submissions/plan-words';
import {
  aliasesOf,
  dailyLimitEnv,
  defaultDailyLimits,
  defaultPlan,
  membershipPrices,
  membershipTiers,
  planKinds,
  planPrices,
  tierCovers,
} from '../../../src/catalog/plans';
import { PENDING_RETENTION_DAYS } from '../../../src/submissions/purge';
import { paymentReasons } from '../../../src/submissions/record-schemas';
import { MAX_RETRIES_PER_DAY } from '../../../src/catalog/retry-limit';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../../src/webhooks/webhook-record';
import { sectionTables } from './markdown';

const contract = readFileSync(join(import.meta.dirname, '../../../docs/contract.md'), 'utf8');

/** The body rows (header row dropped) of the one table under `heading`, or of its `index`-th table. */
function rows(heading: string, index = 0): string[][] {
  const tables = sectionTables(contract, heading);
  expect(tables.length, `a table under "${heading}"`).toBeGreaterThan(index);
  return tables[index]!.slice(1);
}

describe('docs/contract.md agrees with the code', () => {
  it('lists every error code with its status, in the order of src/errors.ts', () => {
    const table = rows('Errors').map(([code, status]) => [code, Number(status)]);
    expect(table).toEqual(Object.entries(errorStatus));
  });

  it('states each plan with its price, and each alias, as the plan table has them', () => {
    const table = rows('Plans and memberships', 0).map(([plan, price, , aliases]) => [plan, price, aliases]);
    expect(table).toEqual(
      planKinds.map((kind) => [
        kind,
        `${amountText(planPrices[kind])} ${planPrices[kind].recurring ? 'a month' : 'once'}`,
        aliasesOf(kind).join(', '),
      ]),
    );
    expect(contract).toContain(`the default is \`${defaultPlan}\``);
  });

  it('states each membership tier with its price, covered plans and default daily quota', () => {
    expect(rows('Plans and memberships', 1)).toEqual(
      membershipTiers.map((tier) => [
        tier,
        `${amountText(membershipPrices[tier])} a month`,
        tierCovers[tier].join(', '),
        `${defaultDailyLimits[tier]} (${dailyLimitEnv[tier]})`,
      ]),
    );
  });

  it('lists every rate-limit policy with its rate and whose bucket it is', () => {
    const table = rows('Rate limits').map(([policy, rate, per]) => [policy, rate, per]);
    const policies = Object.keys(rateLimitPolicies) as RateLimitPolicy[];
    expect(table).toEqual(policies.map((policy) => [policy, describeRate(policy), rateLimitPolicies[policy].per]));
  });

  it('lists every status a submission can have, and every 402 reason', () => {
    expect(rows('States and transitions', 0).map(([status]) => status)).toEqual(['pending_payment', ...siteStatuses]);
    expect(rows('Pending-payment record').map(([reason]) => reason)).toEqual([...paymentReasons]);
  });

  it('states the sizes and counts of the code', () => {
    const table = Object.fromEntries(rows('Sizes and counts').map(([what, limit]) => [what, limit]));
    expect(table).toMatchObject({
      'Request body (REST, MCP, jobs)': BODY_LIMIT_TEXT,
      'Tool name': `${NAME_MIN} to ${NAME_MAX} characters`,
      'Categories per tool': String(MAX_CATEGORIES_PER_TOOL),
      'Description of an edit': `1 to ${DESCRIPTION_MAX} characters`,
      'Items per search page (GET /api/v1/tools)': String(MAX_PAGE_SIZE),
      'Active API keys per account': String(MAX_ACTIVE_KEYS),
      'Webhook endpoints per account': String(MAX_WEBHOOKS_PER_ACCOUNT),
      'Retries of a failed crawl': `${MAX_RETRIES_PER_DAY} per submission and UTC day`,
      'Days per statistics request': String(MAX_STATS_DAYS),
      'Checkout link lifetime': `${CHECKOUT_LIFETIME_MS / 3_600_000} hours`,
      'Unpaid record kept after its link expired': `${PENDING_RETENTION_DAYS} days`,
      'Idempotency-Key remembered': `${IDEMPOTENCY.retentionHours} hours`,
    });
  });

  it('describes every operation openapi.json declares', async () => {
    // Registering the routes reads no dependency; only handling a request would.
    const document = (await openApiDocument(createApp({} as Deps), 'http://tooldir.test')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.filter((operation) => !contract.includes(`\`${operation}`))).toEqual([]);
  });
});
