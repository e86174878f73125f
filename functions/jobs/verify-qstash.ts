import type { MiddlewareHandler } from 'hono';
import { Receiver } from '@upstash/qstash';
import { ServiceError } from '../../src/errors';
import { timingSafeEqual } from '../../src/crypto';
import { bearerToken } from '../middleware/api-key-auth';
import type { AppEnv } from '../types';

/**
 * Guards the job endpoints. Production (QSTASH_*_SIGNING_KEY set): the RAW body is verified with QStash's
 * Receiver against the job's public URL (deps.origin + path + query, the JWT's `sub`; deps.origin is
 * SITE_ORIGIN, required outside local mode, and never the Host header: src/origin.ts); any failure is 401,
 * never 500. Local mode has no signatures, so the endpoints are closed to everyone but the operator token
 * (the local queue calls the job runner in-process, not over HTTP). The body text stays cached on the
 * request, so the handler parses exactly the verified bytes.
 */
export const requireJobSignature: MiddlewareHandler<AppEnv> = async (c, next) => {
  const deps = c.get('deps');
  const keys = deps.config.qstashSigningKeys;
  if (!keys) {
    const given = bearerToken(c.req.header('authorization'));
    const expected = deps.config.adminToken;
    if (!expected || !given || !timingSafeEqual(given, expected)) {
      throw new ServiceError(
        'unauthorized',
        'Job endpoints accept QStash deliveries only (or the operator token in local mode).',
      );
    }
    return next();
  }
  const signature = c.req.header('upstash-signature');
  if (!signature) throw new ServiceError('unauthorized', 'Missing Upstash-Signature header.');
  const body = await c.req.text();
  const requestUrl = new URL(c.req.url);
  const url = `${deps.origin}${requestUrl.pathname}${requestUrl.search}`;
  const receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next });
  let valid = false;
  try {
    valid = await receiver.verify({ signature, body, url });
  } catch (error) {
    deps.log.warn('job signature rejected', { path: requestUrl.pathname, err: String(error) });
  }
  if (!valid) throw new ServiceError('unauthorized', 'Invalid Upstash-Signature.');
  return next();
};
