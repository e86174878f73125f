// Where openapi.json's text comes from: generated here from the app's routes (Node and tests). The Worker build
// puts functions/worker/openapi-text-from-assets.ts in its place (wrangler.toml [alias] "./openapi-text"), which
// reads the text the [build] command generated with this same generator, so the Worker carries no generator.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { generateOpenApiJson } from './openapi-generator';

/** openapi.json's text for `origin`. `bindings` are the Worker's (unused here). */
export async function openApiText(app: OpenAPIHono<AppEnv>, origin: string, _bindings: unknown): Promise<string> {
  return generateOpenApiJson(app, origin);
}
