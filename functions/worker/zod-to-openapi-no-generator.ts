// Build shim (wrangler.toml [alias] for '@asteasolutions/zod-to-openapi', imported by @hono/zod-openapi alone): the
// Worker keeps what its routes need at run time, the registry every `app.openapi(route, handler)` records its route
// in and zod's `.openapi()` metadata methods, and leaves out the document generators (about 5 KiB gzipped). The
// Worker never generates openapi.json: it serves the text the [build] command generated with them
// (functions/worker/openapi-text-from-assets.ts), so `getOpenAPIDocument`/`getOpenAPI31Document` are never called
// there; one that ever ran would fail here, loudly.
export {
  OpenAPIRegistry,
  extendZodWithOpenApi,
  getOpenApiMetadata,
  getRefId,
  zodToOpenAPIRegistry,
  // The package's own file, by path: its name would resolve to this shim. Its declarations are the package's.
  // @ts-expect-error -- the .mjs file has no declaration file of its own beside it
} from '../../node_modules/@asteasolutions/zod-to-openapi/dist/index.mjs';

class LeftOut {
  constructor() {
    throw new Error(
      "zod-to-openapi's document generator is not part of the Worker build: openapi.json comes from the [build] command",
    );
  }
}
export const OpenApiGeneratorV3 = LeftOut;
export const OpenApiGeneratorV31 = LeftOut;
export const OpenApiGeneratorV32 = LeftOut;
