// The floor: routes mounted only in the bench build that run the same single indexed query as the real
// endpoint, with no auth, limits or validation. The ratio real/floor is what the app's layers cost.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import type { Actor } from '../../../src/accounts/actor';
import { queryRows } from '../../../src/db/client';
import { getSubmission } from '../../../src/submissions/get';
import { listSubmissions } from '../../../src/submissions/list';
import type { AppEnv } from '../../../functions/types';

/** Mounts /bench/floor/* for one fixed account (the same rows the real endpoints read). */
export function floorRoutes(actor: () => Actor) {
  return (app: OpenAPIHono<AppEnv>) => {
    app.get('/bench/floor/sites/:id', async (c) =>
      c.json(await getSubmission({ deps: c.get('deps'), actor: actor(), siteId: c.req.param('id') })),
    );
    app.get('/bench/floor/sites', async (c) =>
      c.json(await listSubmissions({ deps: c.get('deps'), actor: actor(), input: { limit: 20, offset: 0 } })),
    );
    // The statement the 402 path ends with: one pending record (the checkout link is made up, as local payments do).
    app.post('/bench/floor/submit', async (c) => {
      const body = (await c.req.json()) as { url: string; name: string };
      const id = crypto.randomUUID();
      const rows = await queryRows<{ id: string }>(
        c.get('deps').db,
        sql`INSERT INTO pending_submissions (id, account_id, name, url, canonical_url, normalized_name, plan, reason,
              version, state, checkout_session_id, checkout_url, expires_at)
            VALUES (${id}, ${actor().accountId}, ${body.name}, ${body.url}, ${body.url}, ${body.name.toLowerCase()}, 'basic',
              'no_membership', 1, 'open', ${`cs_floor_${id}`}, ${`http://floor/checkout/${id}`}, now() + interval '1 day')
            RETURNING id`,
      );
      return c.json({ site_id: rows[0]?.id, status: 'pending_payment' }, 402);
    });
  };
}
