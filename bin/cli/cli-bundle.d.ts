// Types for bin/cli/cli-bundle.js (plain JavaScript so that the `tooldir` command needs no TypeScript loader).
export const cliBundlePath: string;
export function isCliBundleStale(bundle?: string): boolean;
export function ensureCliBundle(): Promise<string>;
