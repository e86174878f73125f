import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import { isServiceError } from '../errors';
import { createAccount, findAccountByEmail, type AccountView } from './accounts';
import { CHALLENGE, MAX_CODE_TRIES, hashCode } from './sign-in';

export type CodeCheck =
  | { ok: true; account: AccountView }
  | { ok: false; reason: 'wrong'; triesLeft: number }
  /** locked: this code had its MAX_CODE_TRIES wrong tries; expired: no live code for this browser and address. */
  | { ok: false; reason: 'locked' | 'expired' | 'signup_closed' };

/**
 * Checks a code against the one code of this browser (its challenge cookie) for this address. Tries are
 * counted on that code alone, so wrong guesses from another browser can neither use up the owner's code
 * nor stop the owner's next one (docs/account.md "Sign-in codes"). One conditional statement spends the
 * try or marks the code used, so concurrent guesses cannot exceed the limit and a code works once.
 * An unknown address that proves its code gets an account with tier none (unless sign-up is closed).
 */
export async function verifySignInCode(
  deps: Deps,
  input: { email: string; code: string; challenge: string | undefined },
): Promise<CodeCheck> {
  const { email, challenge } = input;
  if (!challenge || !CHALLENGE.test(challenge)) return { ok: false, reason: 'expired' };
  const now = deps.now().toISOString();
  const challengeHash = await sha256Hex(challenge);
  const hash = /^\d{6}$/.test(input.code) ? await hashCode(deps.config, email, input.code) : 'not-a-code';
  const [spent] = await queryRows<{ ok: boolean; tries: number }>(
    deps.db,
    sql`UPDATE sign_in_codes SET
          tries = tries + CASE WHEN code_hash = ${hash} THEN 0 ELSE 1 END,
          used_at = CASE WHEN code_hash = ${hash} THEN ${now}::timestamptz END
        WHERE challenge_hash = ${challengeHash} AND email = ${email} AND used_at IS NULL
          AND expires_at > ${now}::timestamptz AND tries < ${MAX_CODE_TRIES}
        RETURNING used_at IS NOT NULL AS ok, tries`,
  );
  if (!spent) {
    const [row] = await queryRows<{ locked: boolean }>(
      deps.db,
      sql`SELECT used_at IS NULL AND tries >= ${MAX_CODE_TRIES} AS locked FROM sign_in_codes
          WHERE challenge_hash = ${challengeHash} AND email = ${email} AND expires_at > ${now}::timestamptz`,
    );
    return { ok: false, reason: row?.locked ? 'locked' : 'expired' };
  }
  if (!spent.ok) {
    const triesLeft = MAX_CODE_TRIES - Number(spent.tries);
    return triesLeft > 0 ? { ok: false, reason: 'wrong', triesLeft } : { ok: false, reason: 'locked' };
  }
  const account = await findOrCreateAccount(deps, email);
  return account ? { ok: true, account } : { ok: false, reason: 'signup_closed' };
}

async function findOrCreateAccount(deps: Deps, email: string): Promise<AccountView | undefined> {
  const existing = await findAccountByEmail(deps, email);
  if (existing) return existing;
  if (!deps.config.signupOpen) return undefined;
  try {
    return await createAccount(deps, { email });
  } catch (error) {
    if (isServiceError(error) && error.code === 'conflict') return findAccountByEmail(deps, email);
    throw error;
  }
}
