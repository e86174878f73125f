/**
 * The Public Suffix List (private section included), which src/domain-names.ts reads to find a host's registrable
 * domain. The list is the rule data of the npm package `psl` (`data/rules.js`, the list's rules in its own order,
 * Unicode spellings kept); it is ~40 KiB gzipped, too much for the Worker bundle beside its cap (docs/ownership.md
 * "The Public Suffix List"), so each entry hands it over from where it lives: the Worker reads it from its static
 * assets (assets.ts), the Node server and the tests from node_modules (functions/node/public-suffixes.ts).
 */
export interface PublicSuffixes {
  /** The list's rules (`co.uk`, `*.ck`, `!www.ck`, `github.io`), loaded once per process on first use. */
  rules(): Promise<readonly string[]>;
}

/** The npm package that ships the rules, and the file in it. */
export const PUBLIC_SUFFIXES_PACKAGE = 'psl';
export const PUBLIC_SUFFIXES_FILE_IN_PACKAGE = 'data/rules.js';
/** Where the Worker's static assets keep them, as a JSON array (functions/worker/build-assets.ts writes it). */
export const PUBLIC_SUFFIXES_ASSET_PATH = '/_lists/public-suffixes.json';
