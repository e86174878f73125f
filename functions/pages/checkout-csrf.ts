// CSRF protection for the local checkout's Pay form: a per-session token plus a same-origin check.
import type { Context } from 'hono';
import { timingSafeEqual } from '../../src/crypto';
import type { AppEnv } from '../types';

/** HMAC-SHA256(secret, "local-checkout:" + session id), hex: stateless, and unguessable without the secret. */
export async function checkoutFormToken(secret: string, sessionId: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`local-checkout:${sessionId}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// The same-origin half is every form's (middleware/csrf.ts); the Pay form's token is this HMAC.
export { isSameOrigin } from '../middleware/csrf';

export async function isValidFormToken(secret: string, sessionId: string, token: unknown): Promise<boolean> {
  return typeof token === 'string' && timingSafeEqual(token, await checkoutFormToken(secret, sessionId));
}
