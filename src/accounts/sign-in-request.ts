import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { randomToken, sha256Hex } from '../crypto';
import {
  CODE_TTL_MINUTES,
  CODES_PER_ADDRESS,
  CODES_PER_CLIENT,
  CODES_PER_KNOWN_BROWSER,
  SEND_WINDOW_MINUTES,
  challengeReference,
  generateSignInCode,
  hashClient,
  hashCode,
  knownBrowserId,
} from './sign-in';
import { isDisposableAddress } from './disposable-mail';
import { clientGroup } from '../rate-limits/client-group';

export type CodeRequest =
  /** The browser keeps `challenge` (a cookie); `reference` is shown on the page and in the mail. */
  | { ok: true; challenge: string; reference: string }
  /** This address had its codes for the window (in total, or from this client). */
  | { ok: false; reason: 'too_many_codes'; retryAfterSeconds: number }
  /** The address is at a disposable-mail domain: no code, no account (the same answer whether or not one exists). */
  | { ok: false; reason: 'disposable_address' };

/**
 * Issues a code for `email`, bound to a new browser challenge, and mails it (off the response path).
 *
 * What a stranger can observe is the same for every address: with sign-up closed an unknown address
 * gets a row too, whose hash no 6-digit code matches, and nothing is mailed; the one statement below
 * does the same work either way and the mail is deferred, so neither the answer nor its timing says
 * whether the address has an account (docs/account.md "What a stranger learns").
 *
 * The send budgets (CODES_PER_CLIENT per client, CODES_PER_ADDRESS in total, per window) are counted in
 * the database, in the same statement, under the budget rows' locks: concurrent requests cannot overshoot
 * them, and unlike the Redis limiter they do not fail open, because they bound the guesses an address
 * can receive (codes × MAX_CODE_TRIES). A browser that shows a known-browser token for this address (it
 * signed in as it before) is counted on a budget of its own instead, outside the address's total: strangers
 * cannot spend it, so they cannot keep the owner's usual browser from a code (docs/account.md).
 *
 * An address at a disposable-mail domain is refused before anything is written or sent, by its domain alone, so
 * the refusal says nothing about whether an account exists (docs/account.md "Disposable addresses").
 */
export async function requestSignInCode(
  deps: Deps,
  input: { email: string; client: string; knownBrowser?: string },
): Promise<CodeRequest> {
  const { email } = input;
  if (await isDisposableAddress(deps, email)) return { ok: false, reason: 'disposable_address' };
  const challenge = randomToken(32);
  const challengeHash = await sha256Hex(challenge);
  const reference = challengeReference(challengeHash);
  const code = generateSignInCode();
  const realHash = await hashCode(deps.config, email, code);
  // Never matches: verification hashes only 6-digit input, and this is not one.
  const deadHash = await hashCode(deps.config, email, `no-account:${randomToken(22)}`);
  const browserId = await knownBrowserId(deps.config, email, input.knownBrowser);
  const client = await hashClient(deps.config, browserId ? `known-browser:${browserId}` : clientGroup(input.client));
  const clientLimit = browserId ? CODES_PER_KNOWN_BROWSER : CODES_PER_CLIENT;
  const now = deps.now();
  const nowIso = now.toISOString();
  const windowFloor = new Date(now.getTime() - SEND_WINDOW_MINUTES * 60_000).toISOString();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000).toISOString();
  const budget = (limit: number) => sql`ON CONFLICT (email, client) DO UPDATE SET
      window_start = CASE WHEN b.window_start <= ${windowFloor}::timestamptz THEN EXCLUDED.window_start ELSE b.window_start END,
      sent = CASE WHEN b.window_start <= ${windowFloor}::timestamptz THEN 1 ELSE b.sent + 1 END
    WHERE b.window_start <= ${windowFloor}::timestamptz OR b.sent < ${limit}
    RETURNING 1`;
  // The client's budget first: a refused client never touches the address's total. A known browser's codes
  // are outside that total (see above).
  const byAddress = browserId
    ? sql`SELECT 1 FROM by_client`
    : sql`INSERT INTO sign_in_send_budgets AS b (email, client, window_start, sent)
          SELECT ${email}, '*', ${nowIso}::timestamptz, 1 FROM by_client ${budget(CODES_PER_ADDRESS)}`;
  const [issued] = await queryRows<{ mail: boolean }>(
    deps.db,
    sql`WITH by_client AS (
          INSERT INTO sign_in_send_budgets AS b (email, client, window_start, sent)
          VALUES (${email}, ${client}, ${nowIso}::timestamptz, 1) ${budget(clientLimit)}
        ), by_address AS (${byAddress}), account AS (
          SELECT EXISTS (SELECT 1 FROM accounts WHERE email = ${email}) AS known
        )
        INSERT INTO sign_in_codes (challenge_hash, email, code_hash, expires_at, tries, created_at)
        SELECT ${challengeHash}, ${email},
          CASE WHEN account.known OR ${deps.config.signupOpen}::boolean THEN ${realHash} ELSE ${deadHash} END,
          ${expiresAt}::timestamptz, 0, ${nowIso}::timestamptz
        FROM by_address, account
        RETURNING code_hash = ${realHash} AS mail`,
  );
  if (!issued) {
    const budgets = browserId ? { [client]: clientLimit } : { [client]: clientLimit, '*': CODES_PER_ADDRESS };
    return { ok: false, reason: 'too_many_codes', retryAfterSeconds: await secondsUntilBudget(deps, email, budgets) };
  }
  if (issued.mail) {
    // Deferred: waiting for the mail API only for addresses that get mail would time the answer by them.
    deps.defer(
      deps.mail.send({
        to: email,
        subject: `Your tooldir sign-in code: ${code}`,
        text:
          `Your sign-in code is ${code}\n\n` +
          `Enter it in the browser where you asked for it: that page shows the reference ${reference}. ` +
          `It is valid for ${CODE_TTL_MINUTES} minutes and can be used once.\n` +
          `If you did not ask for it, ignore this message: nobody can sign in without the code, ` +
          `and it works only in the browser that asked for it.\n`,
      }),
    );
  }
  return { ok: true, challenge, reference };
}

/** When the fullest of the budgets that refused (`{client: limit}`: this client's, and the address's total) has room again. */
async function secondsUntilBudget(deps: Deps, email: string, budgets: Record<string, number>): Promise<number> {
  const clients = Object.keys(budgets);
  const rows = await queryRows<{ window_start: string; sent: number; client: string }>(
    deps.db,
    sql`SELECT client, sent, to_char(window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS window_start
        FROM sign_in_send_budgets WHERE email = ${email} AND client IN (${sql.join(
          clients.map((c) => sql`${c}`),
          sql`, `,
        )})`,
  );
  const windowEnds = rows
    .filter((r) => Number(r.sent) >= (budgets[r.client] ?? Infinity))
    .map((r) => new Date(r.window_start).getTime() + SEND_WINDOW_MINUTES * 60_000);
  const until = Math.max(deps.now().getTime(), ...windowEnds);
  return Math.max(1, Math.ceil((until - deps.now().getTime()) / 1000));
}
