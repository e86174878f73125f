// The floor: routes mounted only in the bench build that run the same single indexed query as the real
// endpoint, through the same verb that issues it, with no auth, limits or validation. The ratio real/floor
// is what the app's layers (and, for submit, its second statement) cost.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Actor } from '../../../src/accounts/actor';
import { getSubmission } from '../../../src/submissions/get';
import { listSubmissions } from '../../../src/submissions/list';
import type { AppEnv } from '../../../functions/types';
import { requestPayment } from '../../../src/submissions/request-payment';

/** Mounts /bench/floor/* for one fixed account (the same rows the real endpoints read). */
export function floorRoutes(actor: () => Actor) {
  return (app: OpenAPIHono<AppEnv>) => {
    app.get('/bench/floor/sites/:id', async (c) =>
      c.json(await getSubmission({ deps: c.get('deps'), actor: actor(), input: { siteId: c.req.param('id') } })),
    );
    app.get('/bench/floor/sites', async (c) =>
      c.json(await listSubmissions({ deps: c.get('deps'), actor: actor(), input: { limit: 20, offset: 0 } })),
    );
    // The statement the 402 path ends with, through the same verb: requestPayment makes the local checkout link
    // (no I/O) and stores the pending record with the very INSERT … RETURNING the real endpoint runs.
    app.post('/bench/floor/submit', async (c) => {
      const body = (await c.req.json()) as { url: string; name: string };
      const record = await requestPayment(c.get('deps'), actor(), {
        input: { name: body.name, url: body.url, plan: 'basic' },
        canonicalUrl: body.url,
        normalizedName: body.name.toLowerCase(),
        reason: 'no_membership',
      });
      return c.json(record, 402);
    });
  };
}
