// The domain routes (docs/ownership.md), mounted together by functions/app.ts.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import * as add from './add';
import * as list from './list';
import * as verify from './verify';
import * as remove from './remove';

export function register(app: OpenAPIHono<AppEnv>) {
  for (const route of [add, list, verify, remove]) route.register(app);
}
