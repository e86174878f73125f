// How the registry API names a listing's MCP server (docs/registry-api.md "Names"): reverse-DNS of a domain, a slash,
// the listing's slug. The official registry's pattern for a name is ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$; a slug is
// lower-case letters, digits and hyphens, and a domain reversed keeps its letters, digits, dots and hyphens.

/** `example.com` → `com.example`. */
export const reverseDns = (domain: string) => domain.toLowerCase().split('.').reverse().join('.');

/**
 * The namespace of servers whose owner proved no domain: our own origin's host, reversed (`https://tooldir.dev` →
 * `dev.tooldir`). A host the name pattern cannot hold (an IPv6 literal) stands as `localhost`, which only a local run has.
 */
export function ownNamespace(origin: string): string {
  const host = new URL(origin).hostname;
  return /^[a-z0-9.-]+$/i.test(host) ? reverseDns(host) : 'localhost';
}

/** The version a server reported, when the registry may carry it; else the fallback below. */
const USABLE_VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,127}$/;
/** What the registry rejects as a range (`1.x`, `1.*`), and the word the API reserves for "the newest". */
const RANGE_OR_RESERVED = /(^|\.)(x|X|\*)(\.|$)|^latest$/;

/** A server that reported no usable version is carried as this (stable: it changes only when one is reported). */
export const FALLBACK_VERSION = '0.0.0';

/** The version of a server as the registry API carries it. */
export function registryVersion(reported: string | null | undefined): string {
  return reported && USABLE_VERSION.test(reported) && !RANGE_OR_RESERVED.test(reported) ? reported : FALLBACK_VERSION;
}
