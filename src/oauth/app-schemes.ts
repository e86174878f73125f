// Which schemes other than http(s) an app may receive its authorization code on (RFC 8252 §7.1), and why the
// rest are refused. Any other scheme opens whatever the operating system maps it to: `ms-msdt:` and `search-ms:`
// start Windows tools, `intent:` picks an Android app, `jar:` and `chrome-extension:` reach into other software.
// A code redirected there is at best lost and at worst an exploit trigger with our page as the launcher.
// The list is documented in docs/mcp-and-search.md "Redirect URIs".

/**
 * The editors whose MCP clients get their code back on the editor's own scheme, as `scheme://publisher.extension/…`
 * (Cursor: `cursor://anysphere.cursor-mcp/oauth/callback`; VS Code and its forks: `vscode://<extension id>/…`).
 * Hosts that use https (claude.ai, chatgpt.com, vscode.dev) or loopback http (Claude Code, Codex, Zed,
 * VS Code's own MCP client, the MCP Inspector) need no entry here.
 */
export const EDITOR_SCHEMES: readonly string[] = ['cursor', 'vscode', 'vscode-insiders', 'windsurf'];

/**
 * The web platform's own schemes: no app receives a code on them, and a browser would run, show or download what
 * follows instead. Refused with their own words (none of them is a reverse domain name anyway).
 */
const WEB_SCHEMES = new Set([
  'javascript',
  'data',
  'file',
  'vbscript',
  'about',
  'blob',
  'filesystem',
  'view-source',
  'ws',
  'wss',
  'ftp',
]);

/** A DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level domain: letters only, or an internationalised one in its `xn--` form. */
const TOP_LEVEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const SHOWN_SCHEME_LENGTH = 40;

/**
 * `com.example.app`: a domain name its maker controls written in reverse order (RFC 8252 §7.1), so at least two
 * labels and a top-level domain first. Whether the maker controls the domain cannot be checked here; what the
 * shape excludes is every scheme an operating system ships with (none contains a dot and starts with a TLD).
 */
export function isReverseDomainScheme(scheme: string): boolean {
  const labels = scheme.split('.');
  return (
    labels.length >= 2 &&
    scheme.length <= 253 &&
    TOP_LEVEL.test(labels[0]!) &&
    labels.every((label) => LABEL.test(label))
  );
}

/**
 * Why an app may not receive a code on `scheme` (lower-case, without the colon, neither http nor https), or
 * undefined when it may: an editor's scheme from the list, or a reverse domain name.
 */
export function appSchemeProblem(scheme: string): string | undefined {
  if (EDITOR_SCHEMES.includes(scheme) || isReverseDomainScheme(scheme)) return undefined;
  const shown = scheme.length > SHOWN_SCHEME_LENGTH ? `${scheme.slice(0, SHOWN_SCHEME_LENGTH)}…` : scheme;
  if (WEB_SCHEMES.has(scheme)) return `it uses the scheme ${shown}:, which no app can receive a code on`;
  return (
    `its scheme ${shown}: is neither https, http on loopback, a reverse domain name that the app's maker controls ` +
    `(RFC 8252 §7.1, such as com.example.app:/callback) nor one of the editors' schemes (${EDITOR_SCHEMES.join(', ')})`
  );
}
