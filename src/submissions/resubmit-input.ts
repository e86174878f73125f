import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import { submitInputSchema, type SubmitInput } from './submit-input';
import { payableStates } from '../catalog/payment-states';
import { sqlWords } from '../db/sql-format';

/**
 * What the caller last submitted for one of its unpaid records (open or expired, never refunded): the submit
 * input that, sent again through the submit verb, gives the same record a fresh checkout link (docs/contract.md
 * "States and transitions", docs/decisions.md "Pending payment": a fresh link at any time). Undefined when the
 * id is malformed, unknown, another account's, paid or refunded. One statement.
 */
export async function readResubmitInput({
  deps,
  actor,
  input: { siteId },
}: {
  deps: Deps;
  actor: Actor;
  input: { siteId: string };
}): Promise<SubmitInput | undefined> {
  if (!isUuid(siteId)) return undefined;
  const [row] = await queryRows<{
    name: string;
    url: string;
    email: string | null;
    plan: string;
    categories: string[] | string | null;
    mcp_url: string | null;
  }>(
    deps.db,
    sql`SELECT name, url, email, plan, to_jsonb(categories) AS categories, mcp_url FROM pending_submissions
        WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid AND state IN (${sqlWords(payableStates)})`,
  );
  if (!row) return undefined;
  const categories = (typeof row.categories === 'string' ? JSON.parse(row.categories) : row.categories) as
    | string[]
    | null;
  // Through the submit schema, so the input (and the idempotency hash of it) is exactly what the API would build.
  const parsed = submitInputSchema.safeParse({
    name: row.name,
    url: row.url,
    plan: row.plan,
    ...(row.email !== null && { email: row.email }),
    ...(categories?.length && { categories }),
    // The MCP endpoint travels with the record, so a fresh checkout link does not drop it.
    ...(row.mcp_url !== null && { mcp_url: row.mcp_url }),
  });
  if (parsed.success) return parsed.data;
  // Stored under older rules that it no longer meets: say which, rather than fail.
  const why = parsed.error.issues.map((issue) => issue.message).join('; ');
  throw new ServiceError(
    'invalid_request',
    `This submission cannot be sent again as it is (${why}). Submit the tool again with the form.`,
  );
}
