// A form whose POST runs once: each rendering carries a fresh key, and the POST runs its verb through the
// Idempotency-Key machinery of the API (src/idempotency/run-idempotent.ts). A double click or a reload of the POST
// gets the first answer again (the same webhook and secret, the same checkout link) instead of a second effect.
import type { Context } from 'hono';
import { html } from 'hono/html';
import { randomToken, sha256Hex } from '../../../src/crypto';
import { isServiceError } from '../../../src/errors';
import { runIdempotent } from '../../../src/idempotency/run-idempotent';
import type { AppEnv } from '../../types';

const ONCE = /^[0-9A-Za-z]{32}$/;
/** How long a repeat waits for the first POST still running (a double click arrives while it works). */
const WAIT_MS = 250;
const WAITS = 40;

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
  for (let waited = 0; ; waited++) {
    try {
      return await runIdempotent({ deps, accountId, key, operation: `form:${operation}`, input, run });
    } catch (error) {
      if (!isServiceError(error) || error.code !== 'idempotency_in_progress' || waited >= WAITS) throw error;
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    }
  }
}
