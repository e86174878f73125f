import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Config } from '../config';
import { randomToken } from '../crypto';

// Visitor marks (docs/stats.md "A few per client and day"): how the engines remember that a client was counted,
// without ever holding who the client is. A mark is a keyed hash (HMAC-SHA256) of what was counted and for whom,
// under a key of the UTC day; the engines keep marks and their counts, never an address, and forget a day's marks
// when the day is over.

/** A process that was given no ADMIN_TOKEN (local mode only; the Node entry generates one): random per process. */
let processSecret: string | undefined;
/**
 * Today's key, in memory only, as a keyed HMAC state (cloned per mark: the key's pads are hashed once a day, not
 * once a mark); replaced, never kept beside, when the day or the secret changes.
 */
let cached: { root: string; day: string; mac: ReturnType<typeof hmac.create> } | undefined;

/** Bytes of a mark: 96 bits, so a day's millions of marks never collide (birthday bound ~2^48), in 24 hex characters. */
const MARK_BYTES = 12;

/**
 * The key of a UTC day: HMAC-SHA256(the deployment's secret, label + day). Derived where it is used and never
 * stored, by any engine or anywhere else: not beside the counts, not beside the marks. It changes with every day,
 * and with ADMIN_TOKEN (a rotation mid-day lets each client be counted once more that day).
 */
function keyedMac(config: Config, day: string): ReturnType<typeof hmac.create> {
  const root = config.adminToken ?? (processSecret ??= randomToken(43));
  if (cached?.root !== root || cached.day !== day) {
    const key = hmac(sha256, utf8ToBytes(root), utf8ToBytes(`tooldir-stats-visitor-marks-v1\n${day}`));
    cached = { root, day, mac: hmac.create(sha256, key) };
    key.fill(0);
  }
  return cached.mac;
}

/**
 * The mark of `parts` (a label, then who and what: never containing a newline) on `day`: hex of the first 12
 * bytes of HMAC-SHA256(the day's key, the parts joined by newlines).
 * @example
 * visitorMark(config, '2026-05-01', ['client', '203.0.113.7', 'acme-writer', 'views']) // '3f9a…' (24 hex)
 */
export function visitorMark(config: Config, day: string, parts: readonly string[]): string {
  return bytesToHex(
    keyedMac(config, day)
      .clone()
      .update(utf8ToBytes(parts.join('\n')))
      .digest()
      .subarray(0, MARK_BYTES),
  );
}
