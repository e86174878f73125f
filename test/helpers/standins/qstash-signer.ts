// Signs requests the way QStash does (Upstash-Signature: a JWT HS256 over the destination URL and body hash).
import { createHash, createHmac, randomUUID } from 'node:crypto';

/** What to sign; `now` (seconds) lets tests make expired or not-yet-valid tokens. */
export interface QStashSignInput {
  body: string;
  /** The destination URL exactly as the receiver passes it to `Receiver.verify({ url })` (the `sub` claim). */
  url: string;
  /** A signing key (current or next) as shown in the Upstash console. */
  key: string;
  /** Seconds of validity; default 300 like QStash. */
  expiresIn?: number;
  /** Unix seconds used for iat/nbf; default now. */
  now?: number;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * Returns the `Upstash-Signature` header value: JWT {alg: HS256, typ: JWT} with claims iss "Upstash",
 * sub = url, exp, nbf, iat, jti and body = base64url(SHA-256(body)), HMAC'd with the key's UTF-8 bytes.
 * @example
 * const signature = signQStash({ body, url: `${origin}/api/jobs/crawl`, key: currentSigningKey });
 */
export function signQStash(input: QStashSignInput): string {
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({
      iss: 'Upstash',
      sub: input.url,
      exp: now + (input.expiresIn ?? 300),
      nbf: now,
      iat: now,
      jti: `jwt_${randomUUID()}`,
      body: createHash('sha256').update(input.body).digest('base64url'),
    }),
  );
  const signature = createHmac('sha256', input.key).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

/** Alias matching the brief's wording: `sign({ body, url, key, expiresIn? })`. */
export const sign = signQStash;
