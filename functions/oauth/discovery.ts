// GET /.well-known/oauth-protected-resource/mcp (RFC 9728) and GET /.well-known/oauth-authorization-server (RFC 8414)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { authorizationServerMetadata, protectedResourceMetadata } from '../../src/oauth/metadata';
import { AUTHORIZATION_SERVER_METADATA_PATH, RESOURCE_METADATA_PATH } from '../../src/oauth/resource';
import type { AppEnv } from '../types';
import { openCors } from '../middleware/open-cors';

/** Both documents derive from deps.origin (src/origin.ts), never the Host header; an hour of caching is safe. */
export function register(app: OpenAPIHono<AppEnv>) {
  for (const path of [RESOURCE_METADATA_PATH, AUTHORIZATION_SERVER_METADATA_PATH]) app.use(path, openCors);
  app.get(RESOURCE_METADATA_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(protectedResourceMetadata(c.get('deps').origin));
  });
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(authorizationServerMetadata(c.get('deps').origin));
  });
}
