// Node-only: resolves through the operating system (getaddrinfo), like Node's own HTTP stack does.
import { lookup } from 'node:dns/promises';
import type { Resolver } from './resolver';

/** A Resolver backed by `dns.lookup(host, { all: true })`, returning every A and AAAA answer. */
export function createNodeDnsResolver(): Resolver {
  return async (hostname) => {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  };
}
