// The Worker build's openapi.json (wrangler.toml [build] command, build-assets.ts): generated here, once per build,
// by the very generator and routes the Node server uses (functions/v1/docs/openapi-generator.ts), with a stand-in
// origin the Worker replaces with its own (functions/worker/openapi-text-from-assets.ts). The Worker bundle then
// carries neither the generator nor zod-to-openapi's document code (wrangler.toml [alias]).
import type { Deps } from '../../src/deps';
import { createApp } from '../app';
import { generateOpenApiJson } from '../v1/docs/openapi-generator';
import { TEMPLATE_ORIGIN, withOrigin } from '../v1/docs/openapi-template';

/** An origin unlike the stand-in in every part, to prove the stand-in is the only place the origin shows. */
const CHECK_ORIGIN = 'http://check.example:8787';

/** The template's text. Throws when the origin shows anywhere but where the stand-in can be replaced. */
export function openApiTemplate(): string {
  // Registering the routes reads no dependency; only handling a request would.
  const app = createApp({} as Deps);
  const template = generateOpenApiJson(app, TEMPLATE_ORIGIN);
  if (withOrigin(template, CHECK_ORIGIN) !== generateOpenApiJson(app, CHECK_ORIGIN))
    throw new Error(
      'openapi.json depends on its origin beyond the stand-in: the Worker could not serve it from a template',
    );
  return template;
}
