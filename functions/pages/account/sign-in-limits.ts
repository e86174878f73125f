import type { Context } from 'hono';
import type { AppEnv } from '../../types';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { clientIp } from '../../middleware/client-ip';

/**
 * The `signin` policy per client IP, for code requests and for code attempts, checked before any work:
 * one client cannot probe many addresses or guess fast. There is deliberately no bucket per e-mail
 * address here: a stranger could fill it and so refuse the owner's own requests. What one address can
 * receive is bounded by the send budgets and the tries per code in src/accounts (docs/account.md).
 * The headers therefore describe only the caller's own bucket, never anything about the address.
 */
export async function limitSignIn(c: Context<AppEnv>, action: 'code-request' | 'code-attempt'): Promise<void> {
  await enforceRateLimit(c, 'signin', `${action}:ip:${clientIp(c)}`);
}
