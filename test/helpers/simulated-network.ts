// A crawler transport that plays a small Internet from memory: a DNS table and in-memory pages. It opens no
// socket at all, so a crawl through it cannot send a packet anywhere, even when the guard under test is broken;
// anything the table does not name is recorded as a violation (a test asserts the list stays empty).
import type { CrawlTransport } from '../../src/deps';

/** A page: a Response to serve, or 'hang' for a server that accepts and never answers. */
export type SimulatedPage = (() => Response) | 'hang';

export interface SimulatedNetworkOptions {
  /** Host name → its addresses, or the error the resolver throws for it. */
  dns: Record<string, readonly string[] | Error>;
  /** Exact URL → what answers it. A URL is fetched only after the crawler accepted its addresses. */
  pages?: Record<string, SimulatedPage>;
  /** The crawl deadline to use (CrawlTransport.timeoutMs). */
  timeoutMs?: number;
}

export interface SimulatedNetwork extends CrawlTransport {
  /** Lookups and fetches the tables did not expect. */
  violations: string[];
  /** Every URL fetched, in order. */
  fetched: string[];
}

export function simulatedNetwork(options: SimulatedNetworkOptions): SimulatedNetwork {
  const violations: string[] = [];
  const fetched: string[] = [];
  const pages = options.pages ?? {};
  const fetchDouble = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    fetched.push(url);
    const page = pages[url];
    if (page === undefined) {
      violations.push(`fetch ${url}`);
      throw new Error(`simulated network: no page at ${url}`);
    }
    if (page !== 'hang') return page();
    return new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      if (!signal) return; // the crawler's own deadline still ends the crawl (it never relies on fetch honouring it)
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return {
    violations,
    fetched,
    timeoutMs: options.timeoutMs,
    resolver: async (hostname) => {
      const entry = options.dns[hostname];
      if (entry === undefined) {
        violations.push(`resolve ${hostname}`);
        throw new Error(`simulated network: unexpected lookup of ${hostname}`);
      }
      if (entry instanceof Error) throw entry;
      return [...entry];
    },
    fetch: fetchDouble as typeof fetch,
  };
}

/** A redirect response, as a page. */
export const redirectPage =
  (location: string, status = 302): SimulatedPage =>
  () =>
    new Response(null, { status, headers: { location } });

/** Node's resolver error for a name that does not resolve, with the operator-only text a real one carries. */
export function dnsFailure(message: string, code = 'ENOTFOUND'): Error {
  return Object.assign(new Error(message), { code });
}
