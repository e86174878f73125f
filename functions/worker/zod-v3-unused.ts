// Build shim (wrangler.toml [alias] for 'zod/v3'): only the MCP SDK's zod-compat imports zod v3 (~120 KiB raw),
// to build objects from zod 3 schemas. Every schema of this service is zod 4 (the SDK takes its v4 branch),
// so the v3 runtime is never reached; if it were, this fails loudly.
export function object(): never {
  throw new Error('zod v3 schemas are not part of the Worker build: use zod 4');
}
