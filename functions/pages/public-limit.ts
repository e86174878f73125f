import type { Context } from 'hono';
import { html } from 'hono/html';
import { isServiceError } from '../../src/errors';
import type { RateLimitPolicy } from '../../src/rate-limits/policies';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { renderPage } from './layout';

/**
 * Counts a public page against the client address's `public` bucket (or `policy`'s: the outbound link has its own)
 * before any statement runs (every search and every page is an unauthenticated endpoint:
 * docs/decisions.md, "Rate limits"). Past the limit: a 429 page (not JSON), never cached, saying when to
 * retry; otherwise undefined. A page the cache answers never gets here (functions/middleware/page-cache.ts
 * explains why).
 * @example
 * const refused = await refusedPublicPage(c, 'requests');
 * if (refused) return refused;
 */
export async function refusedPublicPage(
  c: Context<AppEnv>,
  what: 'searches' | 'requests',
  policy: RateLimitPolicy = 'public',
): Promise<Response | undefined> {
  try {
    await enforceRateLimit(c, policy, clientIp(c));
    return undefined;
  } catch (error) {
    if (!isServiceError(error) || error.code !== 'rate_limited') throw error;
    const retryAfterSeconds = error.details.retryAfterSeconds ?? 1;
    c.header('Retry-After', String(retryAfterSeconds));
    c.header('Cache-Control', 'no-store');
    return renderPage(c, {
      title: `Too many ${what} – tooldir`,
      description: `Too many ${what} from your address.`,
      status: 429,
      body: () => html`<h1>Too many ${what}</h1>
<p role="alert">Too many ${what} from your address. Please try again in ${retryAfterSeconds} s.</p>
<p><a href="/">Back to the directory</a></p>`,
    });
  }
}
