// Build shim (wrangler.toml [alias] for zod's './from-json-schema.js'): the `z` namespace re-exports
// `z.fromJSONSchema` (JSON Schema → zod, ~4 KiB gzipped), and a namespace object cannot be tree-shaken. Nothing in
// the service, the MCP SDK or @hono/zod-openapi converts JSON Schema into zod: they only go the other way.
export function fromJSONSchema(): never {
  throw new Error(
    'z.fromJSONSchema is left out of the Worker bundle (functions/worker/zod-from-json-schema-unused.ts)',
  );
}
