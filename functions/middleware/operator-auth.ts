import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../../src/errors';
import { timingSafeEqual } from '../../src/crypto';
import { bearerToken } from './api-key-auth';
import { enforceRateLimit } from './rate-limit';
import { clientIp } from './client-ip';
import type { AppEnv } from '../types';

/** Operator API: bearer ADMIN_TOKEN, compared in constant time, limited per client IP before the check. */
export const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  await enforceRateLimit(c, 'admin', clientIp(c));
  const expected = c.get('deps').config.adminToken;
  const given = bearerToken(c.req.header('authorization'));
  if (!expected || !given || !timingSafeEqual(given, expected)) {
    throw new ServiceError('unauthorized', 'A valid operator token is required: Authorization: Bearer <ADMIN_TOKEN>.');
  }
  await next();
};
