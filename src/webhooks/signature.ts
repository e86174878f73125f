// Stripe's signing scheme under our own header name (docs/decisions.md, "Submitter features"), so a
// receiver can reuse its Stripe verification code: docs/webhooks.md shows it in five lines.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { randomToken } from '../crypto';

/** `whsec_` + 32 base62 characters (≈190 bits). */
export function generateWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/** Hex HMAC-SHA256 of `<t>.<raw body>`, keyed with the whole `whsec_…` string (as Stripe keys its own). */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${body}`)));
}

/** The `Tooldir-Signature` header value: `t=<unix seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}
