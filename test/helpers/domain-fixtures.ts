// What domain-proof tests prove against: an in-memory TXT table, and a loopback fixture site reached under Internet
// names. Nothing here can leave the machine: the resolver answers only the names it is given (127.0.0.1), the fetch
// rewrites only those names to the loopback fixture and refuses anything else, and both record what they refused
// (a test asserts the list stays empty).
import type { TxtResolver } from '../../src/adapters/resolver/resolver';
import type { CrawlTransport } from '../../src/deps';
import type { FixtureSite } from './fixture-site';

/** TXT records by name (each record as the strings DNS splits it into); a name not in the table has none. */
export function txtTable(records: Record<string, Array<string | string[]>>): TxtResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = (async (name: string) => {
    asked.push(name);
    return (records[name] ?? []).map((record) => (Array.isArray(record) ? record.join('') : record));
  }) as TxtResolver & { asked: string[] };
  resolver.asked = asked;
  return resolver;
}

/** A TXT resolver for tests that must not ask DNS at all. */
export const noTxt: TxtResolver = async (name) => {
  throw new Error(`unexpected TXT lookup of ${name}`);
};

export interface ProofNetwork extends CrawlTransport {
  violations: string[];
  /** Every URL fetched, as the proof asked for it. */
  fetched: string[];
}

/**
 * `hosts` resolve to 127.0.0.1 and are served by `site` (the request carries `x-test-host: <host>`); any other
 * lookup or fetch fails and is recorded. Needs CRAWL_ALLOW_PRIVATE=true (the fixture is on loopback).
 */
export function proofNetwork(site: FixtureSite, hosts: readonly string[]): ProofNetwork {
  const violations: string[] = [];
  const fetched: string[] = [];
  const fetchDouble = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    fetched.push(url.href);
    const isLoopbackFixture = url.hostname === '127.0.0.1' && url.port === String(site.port);
    if (!hosts.includes(url.hostname) && !isLoopbackFixture) {
      violations.push(`fetch ${url.href}`);
      throw new Error(`proof network: no fetch of ${url.href}`);
    }
    const target = `${site.origin}${url.pathname}${url.search}`;
    const headers = new Headers(init?.headers);
    headers.set('x-test-host', url.hostname);
    return fetch(target, { ...init, headers });
  };
  return {
    violations,
    fetched,
    resolver: async (hostname) => {
      if (hosts.includes(hostname)) return ['127.0.0.1'];
      violations.push(`resolve ${hostname}`);
      throw new Error(`proof network: unexpected lookup of ${hostname}`);
    },
    fetch: fetchDouble as typeof fetch,
  };
}
