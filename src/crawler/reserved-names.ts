import type { Resolver } from '../adapters/resolver/resolver';

// Special-use names (RFC 2606, RFC 6761) never need a DNS query: `localhost` names are loopback by
// definition, and `.test`, `.example`, `.invalid` (and example.com/.net/.org) never host a real tool.
// Answering them here keeps lookups of such names off the network entirely (tests and demos use them).
const LOOPBACK_NAME = /(^|\.)localhost$/;
const NEVER_A_TOOL = /(^|\.)(test|example|invalid|example\.com|example\.net|example\.org)$/;

/** Wraps a resolver so special-use names are answered locally, never sent to a DNS server. */
export function withReservedNames(resolver: Resolver): Resolver {
  return async (hostname, signal) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (LOOPBACK_NAME.test(name)) return ['127.0.0.1'];
    if (NEVER_A_TOOL.test(name)) throw new Error(`${name} is a reserved name (RFC 2606/6761) and does not resolve`);
    return resolver(hostname, signal);
  };
}
