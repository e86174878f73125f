import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

// Structured data for search engines (schema.org JSON-LD). A data block is never executed, so the page's CSP
// (no script but the one allowed by hash) does not need to allow it.

/**
 * JSON for inside a <script> element: `<`, `>` and `&` are written as \u escapes so no value (a tool's name or
 * description is the submitter's text) can close the element or open a comment; U+2028/2029 likewise, for old
 * JSON-in-JS parsers. The result is still the same JSON to any JSON parser.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One `<script type="application/ld+json">` block per item. */
export function jsonLdScripts(items: readonly object[]): HtmlEscapedString | Promise<HtmlEscapedString> {
  return html`${items.map(
    (
      item,
    ) => html`<script type="application/ld+json">${raw(scriptSafeJson({ '@context': 'https://schema.org', ...item }))}</script>
`,
  )}`;
}
