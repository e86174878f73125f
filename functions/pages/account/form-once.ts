// A form whose POST runs once: each rendering carries a fresh key, and the POST runs its verb through the
// Idempotency-Key machinery of the API (src/idempotency/run-idempotent.ts). A double click or a reload of the POST
// gets the first answer again (the same webhook and secret, the same checkout link) instead of a second effect.
import type { Context } from 'hono';
import { html } from 'hono/html';
import { randomToken, sha256Hex } from '../../../src/crypto';
import { runIdempotent } from '../../../src/idempotency/run-idempotent';
import { waitForFirstRun } from '../../../src/idempotency/wait-for-first-run';
import type { AppEnv } from '../../types';

const ONCE = /^[0-9A-Za-z]{32}$/;

/** The hidden field of one rendering of a form. */
export const onceField = () => html`<input type="hidden" name="once" value="${randomToken(32)}">`;

/**
 * Runs `run` once per rendering of the form and `input`: the key is the form's `once` value with a digest of the
 * input, so the same form sent again with other values (the person fixed a field) is a new request. A repeat
 * while the first still runs waits for its answer. A form without the field (not rendered by us) just runs.
 */
export async function runOnce<T>(
  c: Context<AppEnv>,
  accountId: string,
  form: Record<string, string>,
  operation: string,
  input: Record<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  if (!ONCE.test(form.once ?? '')) return run();
  const key = `form:${operation}:${form.once}:${(await sha256Hex(JSON.stringify(input))).slice(0, 16)}`;
  const deps = c.get('deps');
  return waitForFirstRun(() => runIdempotent({ deps, accountId, key, operation: `form:${operation}`, input, run }));
}
