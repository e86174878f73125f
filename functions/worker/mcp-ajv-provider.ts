// Build shim (wrangler.toml [alias] for the MCP SDK's '../validation/ajv-provider.js'): the SDK's default
// JSON Schema validator is Ajv (~56 KiB gzipped with ajv-formats and fast-uri), which compiles validators
// with eval and so cannot run on Workers anyway. functions/mcp/server.ts passes its own validator, so this
// class is never used; if it ever were, it fails loudly instead of silently skipping validation.
export class AjvJsonSchemaValidator {
  getValidator(): never {
    throw new Error('Ajv is not part of the Worker build: pass jsonSchemaValidator to the MCP server');
  }
}
