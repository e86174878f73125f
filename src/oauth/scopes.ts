// What an OAuth client may be allowed to do, as scopes and in words (docs/mcp-and-search.md "Scopes").

/** Every scope, in the order the consent page lists them, with the words a person reads there. */
export const SCOPES = {
  'tools:read': 'Search the directory and read the details of listed tools',
  'sites:read': 'See your submissions and their status',
  'sites:submit':
    'Submit tools on your behalf, retry failed crawls and propose edits of your live tools. A submission may need payment: you get a checkout link and pay yourself',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

/**
 * A `scope` parameter (space-separated, RFC 6749 §3.3) as known scopes in table order, or the unknown ones.
 * No scope at all means every scope: MCP clients ask for what the protected resource metadata lists anyway,
 * and the consent page shows the person exactly what is granted.
 */
export function parseScope(
  value: string | undefined,
): { ok: true; scopes: Scope[] } | { ok: false; unknown: string[] } {
  const words = (value ?? '').split(' ').filter(Boolean);
  if (words.length === 0) return { ok: true, scopes: [...ALL_SCOPES] };
  const unknown = words.filter((w) => !isScope(w));
  if (unknown.length > 0) return { ok: false, unknown };
  return { ok: true, scopes: ALL_SCOPES.filter((s) => words.includes(s)) };
}

/** A scope word as RFC 6749 §3.3 allows it (printable ASCII but `"` and `\`): only such a word is repeated back. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const SHOWN_UNKNOWN_SCOPES = 3;
const SHOWN_SCOPE_LENGTH = 30;

/**
 * Why a `scope` is refused, for a page a person reads: at most a few of the unknown words, each cut short, and a
 * word with characters no scope has is described instead of repeated. Whoever wrote the link chose these words,
 * so the page must not become a place to show someone else's text at length.
 */
export function unknownScopeMessage(unknown: readonly string[]): string {
  const distinct = [...new Set(unknown)];
  const shown = distinct.slice(0, SHOWN_UNKNOWN_SCOPES).map((word) => {
    if (!SCOPE_TOKEN.test(word)) return 'a word with characters a scope cannot have';
    return word.length > SHOWN_SCOPE_LENGTH ? `${word.slice(0, SHOWN_SCOPE_LENGTH)}…` : word;
  });
  const more = distinct.length - shown.length;
  return `Unknown scope: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}. The scopes are ${ALL_SCOPES.join(', ')}.`;
}

/** Scopes as stored and sent: space-separated, in table order. */
export const formatScope = (scopes: readonly string[]) => ALL_SCOPES.filter((s) => scopes.includes(s)).join(' ');

/** A stored scope string back to its scopes (unknown words, which we never store, are dropped). */
export const scopesOf = (stored: string): Scope[] => stored.split(' ').filter(isScope);
