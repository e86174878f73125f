/**
 * Resolves a hostname to every address it currently points at (A and AAAA), as textual IPs.
 * Rejects when the name cannot be resolved; the crawler checks every returned address itself.
 * The optional signal lets the crawl's overall deadline cancel a slow lookup.
 */
export type Resolver = (hostname: string, signal?: AbortSignal) => Promise<string[]>;
