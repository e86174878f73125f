import type { Config } from '../config';
import { randomToken, sha256Hex, timingSafeEqual } from '../crypto';
import { foldMailDomain } from './mail-domain';

/**
 * Password-less sign-in: a 6-digit one-time code, mailed, valid 10 minutes, bound to the browser that
 * asked for it, at most 5 tries per code. The limits and why they are what they are: docs/account.md
 * "Sign-in codes". Issuing: sign-in-request.ts; checking: sign-in-verify.ts.
 */
export const CODE_TTL_MINUTES = 10;
/** Wrong tries one code survives; a new code (from the same browser) starts over at 0. */
export const MAX_CODE_TRIES = 5;
/**
 * Codes sent for one address per window, in total and per client: the bound on guesses and on mail. A window
 * lasts SEND_WINDOW_MINUTES from the first code sent in it, so strangers who use up an address's codes keep
 * its owner from a new one for at most that long (docs/account.md "The bound, in numbers").
 */
export const CODES_PER_ADDRESS = 3;
export const CODES_PER_CLIENT = 2;
export const SEND_WINDOW_MINUTES = 15;
/**
 * Codes per window for a browser that signed in to the address before (it holds a known-browser token): its own
 * budget, outside the address's total, so strangers can never keep the owner's usual browser from a code.
 */
export const CODES_PER_KNOWN_BROWSER = 3;
/** How long a known-browser token lasts (browsers cap cookies at 400 days). */
export const KNOWN_BROWSER_DAYS = 400;

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/**
 * The address an account is known by: trimmed, the local part lower-cased, the domain as mail reads it (UTS #46,
 * ./mail-domain.ts), so `Ada@ＥＸＡＭＰＬＥ。com.` is `ada@example.com`. Undefined when it is not a plausible e-mail
 * (empty domain labels included).
 */
export function normalizeEmail(input: string): string | undefined {
  const typed = input.trim();
  const at = typed.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = foldMailDomain(typed.slice(at + 1));
  if (domain === undefined) return undefined;
  const email = `${typed.slice(0, at).toLowerCase()}@${domain}`;
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

/** The challenge a browser keeps in a cookie; only its hash is stored (it names the browser's code row). */
export const CHALLENGE = /^[0-9A-Za-z]{32}$/;

/**
 * A secret for a process that was given no ADMIN_TOKEN, which only local mode allows (loadConfig refuses to start
 * without one anywhere else, and the local entry generates one into DATA_DIR): random per process, never a constant.
 */
let processSecret: string | undefined;

/**
 * The server-side pepper of code and client hashes: derived from ADMIN_TOKEN, a secret that is required outside
 * local mode, so a dump of sign_in_codes alone cannot be brute-forced (10^6 codes per address). Changing the token
 * voids the codes outstanding (10 minutes) and restarts the send budgets' counts per client.
 */
export function signInSecret(config: Config): string {
  return `tooldir-sign-in-v1:${config.adminToken ?? (processSecret ??= randomToken(43))}`;
}

export const hashCode = (config: Config, email: string, code: string) =>
  sha256Hex(`${signInSecret(config)}\n${email}\n${code}`);

/** The peppered hash of a client group: send budgets are counted per client without storing its address. */
export const hashClient = (config: Config, group: string) => sha256Hex(`${signInSecret(config)}\nclient\n${group}`);

const knownBrowserMac = (config: Config, email: string, id: string) =>
  sha256Hex(`${signInSecret(config)}\nknown-browser\n${email}\n${id}`);

/**
 * `{id}.{mac}`: what a browser keeps after it signed in as `email` (a cookie), proving so later without any
 * row: the MAC is keyed with the server secret and binds the id to the address. Only someone who proved a code
 * for the address holds one, so the budget it opens adds no guesses for strangers.
 */
export async function issueKnownBrowserToken(config: Config, email: string): Promise<string> {
  const id = randomToken(22);
  return `${id}.${await knownBrowserMac(config, email, id)}`;
}

/** The browser's id when `token` was issued for `email` by this server; undefined for anything else. */
export async function knownBrowserId(
  config: Config,
  email: string,
  token: string | undefined,
): Promise<string | undefined> {
  const match = token === undefined ? null : /^([0-9A-Za-z]{22})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return undefined;
  const [, id, mac] = match;
  return timingSafeEqual(mac!, await knownBrowserMac(config, email, id!)) ? id : undefined;
}

const REFERENCE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * Four letters derived from the challenge, shown on the code page and in the mail, so the owner can tell
 * which mail belongs to this browser when someone else asked for codes to the same address too.
 */
export function challengeReference(challengeHash: string): string {
  let ref = '';
  for (let i = 0; i < 4; i++)
    ref += REFERENCE_LETTERS[parseInt(challengeHash.slice(i * 2, i * 2 + 2), 16) % REFERENCE_LETTERS.length];
  return ref;
}
