/**
 * Resolves a hostname to every address it currently points at (A and AAAA), as textual IPs.
 * Rejects when the name cannot be resolved; the crawler checks every returned address itself.
 * The optional signal lets the crawl's overall deadline cancel a slow lookup.
 */
export type Resolver = (hostname: string, signal?: AbortSignal) => Promise<string[]>;

/**
 * Every TXT record at `name`, each as one string: a record split over several character-strings (RFC 1035 limits
 * one to 255 bytes, and DNS consoles split longer values) is joined, as RFC 7208 reads SPF. An empty list means
 * no record (NXDOMAIN or no TXT); a failure to ask rejects.
 */
export type TxtResolver = (name: string, signal?: AbortSignal) => Promise<string[]>;
