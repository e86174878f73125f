// Build shim (wrangler.toml [alias] for '@asteasolutions/zod-to-openapi', imported by @hono/zod-openapi alone): the
// Worker never generates openapi.json; it serves the text the [build] command generated with this package
// (functions/worker/openapi-text-from-assets.ts). In the Worker, OpenAPI metadata is only ever written, never read:
// every reader is the generator (`getOpenAPIDocument`/`getOpenAPI31Document`, which would fail here, loudly), apart
// from @hono/zod-openapi's `route()` merge of registered schemas and parameters, which this service never registers.
// So the registry keeps what is registered (as the package's does) without the metadata bookkeeping, and zod's
// `.openapi()` gives the schema itself back: the package's gives a copy with the same definition, which parses
// alike (about 7 KiB gzipped in all). Node and tests, and the [build] command, use the package itself.
type Definition = Record<string, unknown>;

export class OpenAPIRegistry {
  private readonly _definitions: Definition[] = [];
  constructor(private readonly parents?: OpenAPIRegistry[]) {}
  get definitions(): Definition[] {
    return [...(this.parents ?? []).flatMap((parent) => parent._definitions), ...this._definitions];
  }
  register<T>(_refId: string, schema: T): T {
    this._definitions.push({ type: 'schema', schema });
    return schema;
  }
  registerParameter<T>(_refId: string, schema: T): T {
    this._definitions.push({ type: 'parameter', schema });
    return schema;
  }
  registerPath(route: unknown): void {
    this._definitions.push({ type: 'route', route });
  }
  registerWebhook(webhook: unknown): void {
    this._definitions.push({ type: 'webhook', webhook });
  }
  registerComponent(type: string, name: string, component: unknown) {
    this._definitions.push({ type: 'component', componentType: type, name, component });
    return { name, ref: { $ref: `#/components/${type}/${name}` } };
  }
}

/** Gives every zod schema the `.openapi()` method the routes' schemas call, as a no-op. */
export function extendZodWithOpenApi(zod: { ZodType: { prototype: object } }): void {
  const prototype = zod.ZodType.prototype as { openapi?: unknown };
  if (typeof prototype.openapi !== 'undefined') return;
  prototype.openapi = function (this: unknown) {
    return this;
  };
}

/** No metadata is kept in the Worker (see above). */
export const getOpenApiMetadata = (): Record<string, never> => ({});
export const getRefId = (): undefined => undefined;
export const zodToOpenAPIRegistry = { get: (): undefined => undefined, has: () => false };

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
