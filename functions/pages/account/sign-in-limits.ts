import type { Context } from 'hono';
import type { AppEnv } from '../../types';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { clientIp } from '../../middleware/client-ip';

/**
 * The `signin` policy, counted separately per client IP and per e-mail address, for code requests and
 * for code attempts: one address cannot be mail-bombed or guessed at from many IPs, nor many addresses
 * probed from one IP. Both buckets are checked before any work; the tighter answer sets the headers.
 */
export async function limitSignIn(c: Context<AppEnv>, action: 'code-request' | 'code-attempt', email: string): Promise<void> {
  await enforceRateLimit(c, 'signin', [`${action}:ip:${clientIp(c)}`, `${action}:email:${email}`]);
}
