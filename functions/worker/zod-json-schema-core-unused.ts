// Build shim (wrangler.toml [alias] for zod's './to-json-schema.js' and '../core/to-json-schema.js', and './json-schema-generator.js'):
// the core of zod → JSON Schema conversion; every schema gets toJSONSchema() and ~standard.jsonSchema methods made
// here. The Worker never converts (./zod-json-schema-unused.ts says why); a conversion that ever ran would fail, loudly.
const unused = (): never => {
  throw new Error('zod → JSON Schema conversion is not part of the Worker build: the [build] command converts');
};
export const initializeContext = unused;
export const handleUnrepresentable = unused;
export const processSchema = unused;
export const process = unused;
export const extractDefs = unused;
export const finalize = unused;
export const createToJSONSchemaMethod = () => unused;
export const createStandardJSONSchemaMethod = () => unused;
export class JSONSchemaGenerator {
  constructor() {
    unused();
  }
}
