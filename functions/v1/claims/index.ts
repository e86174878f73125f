// The claim route (docs/ownership.md "Claims"), mounted by functions/app.ts.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import * as claim from './claim';

export function register(app: OpenAPIHono<AppEnv>) {
  claim.register(app);
}
