// The claim route and the site.claimed event it documents (docs/ownership.md "Claims"), mounted by functions/app.ts.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import * as claim from './claim';
import * as claimedEvent from './claimed-event';

export function register(app: OpenAPIHono<AppEnv>) {
  claim.register(app);
  claimedEvent.register(app);
}
