// zod writes a nullable string as `{"type": ["string", "null"]}`. That is legal JSON Schema, but a client that maps
// tool schemas onto a one-`type` dialect (Gemini's OpenAPI subset, for one) rejects the tool or drops the
// constraint, and MCP Inspector's --strict reports each as a portability warning. The same schema spelled with
// `anyOf` branches of one type each means the same and reads everywhere.

/** Keywords that describe a value rather than constrain it: they stay on the node that is split. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * The JSON Schema with every `type` array split into `anyOf` branches of one type each; a branch other than
 * `null` keeps the node's constraints (each applies only to its own type, so nothing is lost or added).
 */
export function withSingleTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withSingleTypes);
  if (schema === null || typeof schema !== 'object') return schema;
  const node: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties` and the like are maps of names to schemas; `enum`/`const` hold data, never schemas.
    node[key] =
      key === 'enum' || key === 'const' || key === 'examples' || key === 'default' ? value : withSingleTypes(value);
  }
  const types = node.type;
  if (!Array.isArray(types)) return node;
  if (types.length === 1) return { ...node, type: types[0] };
  const outer: Record<string, unknown> = {};
  const constraints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (ANNOTATIONS.has(key) || key === '$schema') outer[key] = value;
    else constraints[key] = value;
  }
  outer.anyOf = types.map((type) => (type === 'null' ? { type } : { type, ...constraints }));
  return outer;
}
