// Build shim (wrangler.toml [alias] for 'zod-to-json-schema'): the MCP SDK converts zod 3 schemas with it and
// zod 4 schemas with zod's own toJSONSchema. Every schema of this service is zod 4, so it is never reached.
export function zodToJsonSchema(): never {
  throw new Error('zod v3 schemas are not part of the Worker build: use zod 4');
}
