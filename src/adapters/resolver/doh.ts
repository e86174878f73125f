// Workers have no DNS API: ask a DNS-over-HTTPS resolver (JSON flavour) for A and AAAA records.
import ipaddr from 'ipaddr.js';
import type { Resolver } from './resolver';

const RECORD_TYPES = { A: 1, AAAA: 28 } as const;
const NOERROR = 0;
const NXDOMAIN = 3;

export interface DohResolverOptions {
  /** The fetch used to reach the DoH endpoint (injected so tests never touch the network). */
  fetch: typeof fetch;
  /** Defaults to Cloudflare's public resolver. */
  endpoint?: string;
}

interface DohAnswer {
  type?: unknown;
  data?: unknown;
}

/** A Resolver that queries `endpoint?name=..&type=A|AAAA` with `accept: application/dns-json`. */
export function createDohResolver(options: DohResolverOptions): Resolver {
  const endpoint = options.endpoint ?? 'https://cloudflare-dns.com/dns-query';
  const query = async (hostname: string, type: keyof typeof RECORD_TYPES, signal?: AbortSignal) => {
    const url = new URL(endpoint);
    url.searchParams.set('name', hostname);
    url.searchParams.set('type', type);
    const response = await options.fetch(url.href, { headers: { accept: 'application/dns-json' }, signal });
    if (!response.ok) throw new Error(`DNS-over-HTTPS answered ${response.status} for ${type} ${hostname}`);
    const body: unknown = await response.json();
    return addressesFromDohBody(body, RECORD_TYPES[type], hostname);
  };
  return async (hostname, signal) => {
    const [a, aaaa] = await Promise.all([query(hostname, 'A', signal), query(hostname, 'AAAA', signal)]);
    const addresses = [...a, ...aaaa];
    if (addresses.length === 0) throw new Error(`no A or AAAA records for ${hostname}`);
    return addresses;
  };
}

/** Picks the answers of the asked type; CNAME hops in the answer section are skipped. */
function addressesFromDohBody(body: unknown, wantedType: number, hostname: string): string[] {
  if (typeof body !== 'object' || body === null) throw new Error(`malformed DNS-over-HTTPS answer for ${hostname}`);
  const { Status, Answer } = body as { Status?: unknown; Answer?: unknown };
  if (Status === NXDOMAIN) return [];
  if (Status !== NOERROR) throw new Error(`DNS-over-HTTPS status ${String(Status)} for ${hostname}`);
  if (!Array.isArray(Answer)) return [];
  const addresses: string[] = [];
  for (const answer of Answer as DohAnswer[]) {
    if (answer.type !== wantedType || typeof answer.data !== 'string') continue;
    // A malformed record is an error, never something to skip: the caller must see every address.
    if (!ipaddr.isValid(answer.data)) throw new Error(`DNS-over-HTTPS returned a non-address "${answer.data}"`);
    addresses.push(answer.data);
  }
  return addresses;
}
