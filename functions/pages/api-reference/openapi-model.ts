// The part of an OpenAPI 3.1 document the reference page reads (functions/v1/openapi.ts builds it), and how it
// walks it: $ref resolution and the operations in document order.

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  example?: unknown;
}
export interface Header {
  description?: string;
  schema?: Schema;
}
export type Content = Record<string, { schema?: Schema }>;
export interface Response {
  description?: string;
  headers?: Record<string, Header>;
  content?: Content;
}
export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Content };
  responses?: Record<string, Response>;
}
export interface ApiDocument {
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, Schema>;
    headers?: Record<string, Header>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
}
export interface Endpoint {
  method: string;
  path: string;
  op: Operation;
}

/** A local reference's target (`#/components/...`), or the value itself; `name` is the component's name. */
export function deref<T>(doc: ApiDocument, value: T, hops = 0): { value: T; name?: string } {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return { value };
  // A chain of references that never ends (A -> B -> A) reads as an empty schema too.
  if (hops > 16) return { value: {} as T };
  const parts = ref
    .slice(2)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  let target: unknown = doc;
  for (const part of parts) target = (target as Record<string, unknown> | undefined)?.[part];
  // A dangling reference reads as an empty schema (`any`) rather than failing the page.
  const resolved = deref(doc, (target ?? {}) as T, hops + 1);
  return { value: resolved.value, name: resolved.name ?? parts.at(-1) };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every operation, in the document's order. */
export const endpointsOf = (doc: ApiDocument): Endpoint[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );

/** Public reads (GET with an empty security requirement) get a "Try it" form: they need no key. */
export const isTryable = ({ method, op }: Endpoint) => method === 'get' && op.security?.length === 0;

/** The operation's parameters with references resolved. */
export const parametersOf = (doc: ApiDocument, op: Operation): Parameter[] =>
  (op.parameters ?? []).map((p) => deref(doc, p).value);
