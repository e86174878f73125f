// The OAuth 2.1 authorization server of the MCP endpoint (docs/mcp-and-search.md "Connecting by URL (OAuth)")
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../types';
import * as discovery from './discovery';
import * as registration from './register';
import * as authorize from './authorize';
import * as token from './token';
import * as revoke from './revoke';

export function register(app: OpenAPIHono<AppEnv>) {
  for (const fn of [discovery, registration, authorize, token, revoke]) fn.register(app);
}
