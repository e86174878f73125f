// Types for bin/server/node-bundle.js (plain JavaScript so that `npm start` needs no TypeScript loader).
export const bundlePath: string;
export function isNodeBundleStale(bundle?: string): boolean;
export function buildNodeBundle(): Promise<string>;
export function ensureNodeBundle(): Promise<string>;
