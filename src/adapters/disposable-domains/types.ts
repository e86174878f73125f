/**
 * The list of disposable-mail domains sign-in refuses (src/accounts/disposable-mail.ts). The list is the npm
 * package `disposable-email-domains-js` (a maintained copy of the disposable-email-domains project's blocklist);
 * it is too large for the Worker bundle, so each entry hands it over from where it lives: the Worker reads it
 * from its static assets (assets.ts), the Node server and the tests from node_modules (functions/node/).
 */
export interface DisposableDomains {
  /** Whether this exact domain (lower-case) is on the list. */
  has(domain: string): Promise<boolean>;
}

/** The npm package that ships the list, and the file in it. */
export const DISPOSABLE_DOMAINS_PACKAGE = 'disposable-email-domains-js';
export const DISPOSABLE_DOMAINS_FILE_IN_PACKAGE = 'dist/dict/disposable_email_blocklist.json';
/** Where the Worker's static assets keep the list (functions/worker/build-assets.ts copies it there). */
export const DISPOSABLE_DOMAINS_ASSET_PATH = '/_lists/disposable-email-domains.json';
