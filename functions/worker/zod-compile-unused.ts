// Build shim (wrangler.toml [alias] for zod's './compile.js'): zod 4.6's `z` namespace re-exports `z.compile`, its
// ahead-of-use parser generator (~8 KiB gzipped), and a namespace object cannot be tree-shaken. It generates code
// with `new Function`, which Workers refuse, so there it could only ever fall back to the ordinary parser, which is
// what `compile` below does; nothing in the service, the MCP SDK or @hono/zod-openapi calls it, and nothing in zod
// itself imports this module. The rest throws if ever called.
const unavailable = (what: string) =>
  new Error(`${what} is left out of the Worker bundle (functions/worker/zod-compile-unused.ts)`);

export const INVALID = Symbol.for('zod.compile.invalid');

export class ZodCompileAsyncError extends Error {
  constructor(message = 'z.compile does not support async refinements, transforms, or checks') {
    super(message);
    this.name = 'ZodCompileAsyncError';
  }
}

export class ZodCompileUnsupportedError extends Error {
  readonly islandable: boolean;
  constructor(feature: string, islandable = true) {
    super(`z.compile does not support ${feature}; this schema must use the runtime parser`);
    this.name = 'ZodCompileUnsupportedError';
    this.islandable = islandable;
  }
}

/** What zod's own `compile` does where code generation is refused: the schema back, on the runtime parser. */
export function compile<T>(schema: T, options?: { strict?: boolean }): T {
  if (options?.strict) throw unavailable('z.compile');
  return schema;
}

export function compileFn(): never {
  throw unavailable('z.compileFn');
}

export function withParser(): never {
  throw unavailable('z.withParser');
}
