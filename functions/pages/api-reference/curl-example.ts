// The copyable curl command of each operation: a fixed template filled from the document's own examples.
import { flatten } from './schema-view';
import { parametersOf, type ApiDocument, type Endpoint, type Schema } from './openapi-model';

/** What each security scheme is called on the page, and the variable its curl example reads the secret from. */
export const SCHEMES: Record<string, [label: string, variable: string]> = {
  apiKey: ['API key', 'TOOLDIR_API_KEY'],
  operatorToken: ['operator token', 'ADMIN_TOKEN'],
};

/**
 * A value for the schema from its example, default, first allowed value or first alternative; an object gets its
 * required fields and those with an example (what a first request needs), an array one item.
 */
export function exampleOf(doc: ApiDocument, schema: Schema | undefined, depth = 0): unknown {
  const { s } = flatten(doc, schema);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alt = (s.oneOf ?? s.anyOf)?.[0];
  if (depth > 8) return null;
  if (alt) return exampleOf(doc, alt, depth + 1);
  const type = [s.type].flat()[0] ?? (s.properties ? 'object' : 'string');
  if (type === 'object') {
    const entries = Object.entries(s.properties ?? {}).filter(
      ([key, p]) => s.required?.includes(key) || flatten(doc, p).s.example !== undefined,
    );
    return Object.fromEntries(entries.map(([key, p]) => [key, exampleOf(doc, p, depth + 1)]));
  }
  if (type === 'array') return s.items ? [exampleOf(doc, s.items, depth + 1)] : [];
  if (type === 'integer' || type === 'number') return s.minimum ?? 0;
  if (type === 'boolean') return true;
  return type === 'null' ? null : (PLACEHOLDERS[s.format ?? ''] ?? s.format ?? 'string');
}

const PLACEHOLDERS: Record<string, string> = { email: 'you@example.com', uri: 'https://example.com/' };

/** One shell word: single quotes, each quote inside closed, escaped and reopened. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function curlFor(doc: ApiDocument, { method, path, op }: Endpoint, origin: string): string {
  const params = parametersOf(doc, op);
  const valueOf = (p: (typeof params)[number]) => p.example ?? p.schema?.example;
  let url = path;
  const query = new URLSearchParams();
  const lines: string[] = [];
  for (const p of params) {
    const value = valueOf(p);
    if (p.in === 'path' && value !== undefined) url = url.replace(`{${p.name}}`, encodeURIComponent(text(value)));
    if (p.in === 'query' && (value !== undefined || p.required))
      query.set(p.name, text(value ?? exampleOf(doc, p.schema)));
    if (p.in === 'header' && value !== undefined) lines.push(`-H ${quote(`${p.name}: ${text(value)}`)}`);
  }
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  // Double quotes: the shell fills in the secret from the environment, so it never sits in the shell's history.
  if (scheme) lines.unshift(`-H "Authorization: Bearer $${SCHEMES[scheme]?.[1] ?? 'TOKEN'}"`);
  const body = op.requestBody?.content?.['application/json'];
  if (body)
    lines.push(`-H 'Content-Type: application/json'`, `-d ${quote(JSON.stringify(exampleOf(doc, body.schema)))}`);
  const search = String(query);
  const start = `curl ${method === 'get' ? '' : `-X ${method.toUpperCase()} `}${quote(`${origin}${url}${search ? `?${search}` : ''}`)}`;
  return [start, ...lines].join(' \\\n  ');
}
