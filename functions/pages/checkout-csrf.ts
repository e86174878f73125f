// CSRF protection for the local checkout's Pay form: a per-session token plus a same-origin check.
import type { Context } from 'hono';
import { timingSafeEqual } from '../../src/crypto';
import type { AppEnv } from '../types';

/** HMAC-SHA256(secret, "local-checkout:" + session id), hex: stateless, and unguessable without the secret. */
export async function checkoutFormToken(secret: string, sessionId: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`local-checkout:${sessionId}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A browser's cross-site POST carries an Origin (or Sec-Fetch-Site) that is not ours (deps.origin, see
 * src/origin.ts; never the Host header): refuse it. Requests without either header (curl, tests) still need
 * the form token.
 */
export function isSameOrigin(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin');
  if (origin && origin !== 'null') {
    return origin === c.get('deps').origin;
  }
  if (origin === 'null') return false;
  const site = c.req.header('sec-fetch-site');
  return !site || site === 'same-origin' || site === 'none';
}

export async function isValidFormToken(secret: string, sessionId: string, token: unknown): Promise<boolean> {
  return typeof token === 'string' && timingSafeEqual(token, await checkoutFormToken(secret, sessionId));
}
