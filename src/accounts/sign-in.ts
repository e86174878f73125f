import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Config } from '../config';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import { createAccount, findAccountByEmail, type AccountView } from './accounts';
import { isServiceError } from '../errors';

/**
 * Password-less sign-in: a 6-digit one-time code, mailed, valid 10 minutes, at most 5 tries.
 * Only a peppered SHA-256 of (email, code) is stored, so a database dump alone does not reveal live codes.
 */
export const CODE_TTL_MINUTES = 10;
export const MAX_CODE_TRIES = 5;

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Trimmed, lower-cased address, or undefined when it is not a plausible e-mail. */
export function normalizeEmail(input: string): string | undefined {
  const email = input.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : undefined;
}

/** 6 digits from the CSPRNG; rejection sampling keeps every code equally likely. */
export function generateSignInCode(): string {
  const bound = 4_294_000_000; // the largest multiple of 10^6 below 2^32
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    if (n! < bound) return String(n! % 1_000_000).padStart(6, '0');
  }
}

/**
 * The server-side pepper. Config has no dedicated auth secret yet, so this derives one from the operator
 * token or the Stripe webhook secret (both are server-only and always set in local mode).
 */
export function signInSecret(config: Config): string {
  return `tooldir-sign-in-v1:${config.adminToken ?? config.stripeWebhookSecret ?? ''}`;
}

const hashCode = (config: Config, email: string, code: string) => sha256Hex(`${signInSecret(config)}\n${email}\n${code}`);

export type CodeRequestOutcome = 'sent' | 'signup_closed' | 'locked';

/**
 * Issues and mails a code. While an earlier code is still live its try counter carries over (asking for a
 * new code does not buy new guesses), and a locked address gets no new code until the old one expires.
 * With sign-up closed an unknown address gets nothing; callers show the same page either way.
 */
export async function requestSignInCode(deps: Deps, email: string): Promise<CodeRequestOutcome> {
  if (!deps.config.signupOpen && !(await findAccountByEmail(deps, email))) return 'signup_closed';
  const code = generateSignInCode();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
  const rows = await queryRows<{ email: string }>(
    deps.db,
    sql`INSERT INTO sign_in_codes AS c (email, code_hash, expires_at, tries, created_at)
        VALUES (${email}, ${await hashCode(deps.config, email, code)}, ${expiresAt.toISOString()}::timestamptz, 0, ${now.toISOString()}::timestamptz)
        ON CONFLICT (email) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at,
          created_at = EXCLUDED.created_at,
          tries = CASE WHEN c.expires_at > ${now.toISOString()}::timestamptz THEN c.tries ELSE 0 END
        WHERE c.expires_at <= ${now.toISOString()}::timestamptz OR c.tries < ${MAX_CODE_TRIES}
        RETURNING c.email`,
  );
  if (rows.length === 0) return 'locked';
  await deps.mail.send({
    to: email,
    subject: `Your tooldir sign-in code: ${code}`,
    text:
      `Your sign-in code is ${code}\n\nIt is valid for ${CODE_TTL_MINUTES} minutes and can be used once.\n` +
      `If you did not ask for it, ignore this message: nobody can sign in without the code.\n`,
  });
  return 'sent';
}

export type CodeCheck =
  | { ok: true; account: AccountView }
  | { ok: false; reason: 'wrong'; triesLeft: number }
  | { ok: false; reason: 'locked' | 'expired' | 'signup_closed' };

/**
 * Checks a code. Every check spends one try in the same statement that reads the hash, so concurrent
 * guesses cannot exceed the limit; the right code is consumed (deleted) so it works exactly once.
 * An unknown address that proves its code gets an account with tier none (unless sign-up is closed).
 */
export async function verifySignInCode(deps: Deps, email: string, code: string): Promise<CodeCheck> {
  const now = deps.now().toISOString();
  const hash = /^\d{6}$/.test(code) ? await hashCode(deps.config, email, code) : 'not-a-code';
  const [spent] = await queryRows<{ ok: boolean; tries: number }>(
    deps.db,
    sql`UPDATE sign_in_codes SET tries = tries + 1
        WHERE email = ${email} AND expires_at > ${now}::timestamptz AND tries < ${MAX_CODE_TRIES}
        RETURNING (code_hash = ${hash}) AS ok, tries`,
  );
  if (!spent) {
    const [row] = await queryRows<{ tries: number }>(
      deps.db,
      sql`SELECT tries FROM sign_in_codes WHERE email = ${email} AND expires_at > ${now}::timestamptz`,
    );
    return { ok: false, reason: row && row.tries >= MAX_CODE_TRIES ? 'locked' : 'expired' };
  }
  if (!spent.ok) {
    const triesLeft = MAX_CODE_TRIES - Number(spent.tries);
    return triesLeft > 0 ? { ok: false, reason: 'wrong', triesLeft } : { ok: false, reason: 'locked' };
  }
  const consumed = await queryRows<{ email: string }>(
    deps.db,
    sql`DELETE FROM sign_in_codes WHERE email = ${email} AND code_hash = ${hash} RETURNING email`,
  );
  if (consumed.length === 0) return { ok: false, reason: 'expired' }; // a parallel request used it first
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
