import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

// Validation of our sitemap responses against the official sitemaps.org 0.9 schemas shipped with the tests
// (test/fixtures/sitemaps/, see their header comments), with libxml2's xmllint compiled to WebAssembly.

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'sitemaps');
const schemas = {
  sitemap: readFileSync(join(fixtures, 'sitemap.xsd'), 'utf8'),
  siteindex: readFileSync(join(fixtures, 'siteindex.xsd'), 'utf8'),
};

/** The schema's complaints about `xml` (empty when it is valid); a malformed document is a complaint too. */
export async function xsdErrors(xml: string, schema: keyof typeof schemas): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: `${schema}.xml`, contents: xml }], schema: [schemas[schema]] });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of every `<tag>` in a sitemap document, entities decoded (our writer emits no CDATA and no nesting). */
export function elementTexts(xml: string, tag: 'loc' | 'lastmod'): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) =>
    m[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]!),
  );
}
