// Requests the typed helpers would tidy up (raw bodies and headers, operator calls from their own address), and
// the checks that a refused request answered in the reference's error shape and changed nothing.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client';
import { ADMIN_TOKEN, type TestApp, type TestResponse } from './test-app';

/** Rows an account owns in one table: a refused request must leave these unchanged. */
export async function countRows(
  t: TestApp,
  table: 'sites' | 'pending_submissions' | 'quota_usage',
  accountId: string,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.deps.db,
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE account_id = ${accountId}`,
  );
  return Number(row!.n);
}

/** A submit with a raw body and raw headers (no JSON.stringify, no default content type). */
export function rawSubmit(t: TestApp, key: string, body: string, contentType?: string): Promise<TestResponse> {
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
  return t.request('/api/v1/submit-site', { method: 'POST', key, headers, body });
}

/** An operator request from its own client address, so the per-IP operator limit never interferes. */
export function operator(t: TestApp, path: string, init: RequestInit & { json?: unknown } = {}): Promise<TestResponse> {
  const headers = new Headers(init.headers);
  headers.set('cf-connecting-ip', `203.0.113.${Math.floor(Math.random() * 250)}-${crypto.randomUUID()}`);
  return t.request(path, { ...init, headers, key: ADMIN_TOKEN });
}

/** The reference's error body (docs/contract.md, "Error body") with the expected code. */
export async function expectErrorBody(res: TestResponse, code: string): Promise<void> {
  const body = await res.json();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
}
