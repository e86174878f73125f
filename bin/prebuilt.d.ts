// Types for bin/prebuilt.js (plain JavaScript so that `npm start` and `tooldir` need no TypeScript loader).
export const root: string;
export function isStale(bundle: string, sources: string[]): boolean;
export function buildBundle(options: { entry: string; outfile: string; external?: string[] }): Promise<string>;
