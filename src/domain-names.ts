// The registrable domain of a host name (docs/ownership.md "Which domain"): the one rule of what a domain is, read by
// domain proofs, claims and the "Verified maker" mark, and meant for every later feature that compares domains
// (a listing that moved to another domain, a registry name from a verified domain).
//
// The Public Suffix List decides, its private section included, so `alice.github.io` is its own domain and
// `github.io` is no one's. `tldts-core` (the maintained parser behind `tldts`, without its built-in copy of the list)
// does the host parsing and the domain arithmetic; the list's rules are handed in, loaded once per process from a
// static asset or node_modules (src/adapters/public-suffixes/), because the list itself would take most of what is
// left under the Worker bundle's cap (docs/ownership.md "The Public Suffix List").
// Spellings of one domain are one domain: the WHATWG URL parser's host step (UTS #46, which Node and workerd both
// implement) turns `EXAMPLE.com.`, `ｅｘａｍｐｌｅ．com` and `bücher.de` into `example.com` and `xn--bcher-kva.de`.
import { getEmptyResult, parseImpl, type IPublicSuffix } from 'tldts-core';

export type DomainNameResult = { ok: true; domain: string } | { ok: false; reason: string };

export interface DomainNameOptions {
  /**
   * CRAWL_ALLOW_PRIVATE: `<name>.localhost` is a domain of its own, so every step of a proof can be tried on one
   * machine. Without it a loopback name is refused like any other name that is no one's on the Internet.
   */
  allowLocalNames: boolean;
  /** The Public Suffix List, compiled (compilePublicSuffixRules). */
  suffixes: PublicSuffixRules;
}

/** The list's rules as three sets of ASCII names: plain rules, wildcard parents (`*.ck` → `ck`), exceptions (`!www.ck` → `www.ck`). */
export interface PublicSuffixRules {
  plain: ReadonlySet<string>;
  wildcardParents: ReadonlySet<string>;
  exceptions: ReadonlySet<string>;
}

const compiled = new WeakMap<readonly string[], PublicSuffixRules>();

/** Compiles the list's rules (Unicode spellings folded to ASCII, as hosts are); the same array is compiled once. */
export function compilePublicSuffixRules(rules: readonly string[]): PublicSuffixRules {
  const known = compiled.get(rules);
  if (known) return known;
  const plain = new Set<string>();
  const wildcardParents = new Set<string>();
  const exceptions = new Set<string>();
  for (const rule of rules) {
    const text = rule.trim();
    if (text.startsWith('!')) add(exceptions, text.slice(1));
    else if (text.startsWith('*.')) add(wildcardParents, text.slice(2));
    else add(plain, text);
  }
  const result = { plain, wildcardParents, exceptions };
  compiled.set(rules, result);
  return result;
}

function add(set: Set<string>, name: string) {
  const folded = foldHostName(name);
  if (folded) set.add(folded);
}

/**
 * The list's algorithm (publicsuffix.org "Formal algorithm"): the longest matching rule wins, an exception rule
 * beats the wildcard it excepts (its suffix is the rule less its first label), and a host under no rule gets the
 * default rule `*` (its last label), marked as neither ICANN nor private so the caller can refuse it.
 */
function suffixLookup(rules: PublicSuffixRules) {
  return (hostname: string, _options: unknown, out: IPublicSuffix) => {
    const labels = hostname.split('.');
    for (let i = 0; i < labels.length; i++) {
      const candidate = labels.slice(i).join('.');
      const parent = labels.slice(i + 1).join('.');
      if (rules.exceptions.has(candidate)) return found(out, parent);
      if (rules.plain.has(candidate) || (i + 1 < labels.length && rules.wildcardParents.has(parent)))
        return found(out, candidate);
    }
    out.publicSuffix = labels.at(-1) ?? null;
    out.isIcann = false;
    out.isPrivate = false;
  };
}

function found(out: IPublicSuffix, suffix: string) {
  out.publicSuffix = suffix;
  out.isIcann = true;
  out.isPrivate = false;
}

/** Characters that would make the URL parser read something other than a host (a port, a path, userinfo, %-decoding). */
const NOT_IN_A_HOST = /[\s\u0000-\u001f\u007f/\\?#@:%[\]]/u;
const MAX_HOST_LENGTH = 253;
const LOCAL_SUFFIX = 'localhost';

/**
 * The ASCII (A-label), lower-case form of a typed host, without the root's trailing dot; undefined when it is no
 * host name. IP addresses come back as the parser writes them (the caller refuses them).
 */
export function foldHostName(typed: string): string | undefined {
  const text = typed.trim();
  if (text.length === 0 || text.length > MAX_HOST_LENGTH + 10 || NOT_IN_A_HOST.test(text)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${text}`).hostname;
  } catch {
    return undefined;
  }
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (
    name.length === 0 ||
    name.length > MAX_HOST_LENGTH ||
    name.split('.').some((label) => label.length === 0 || label.length > 63)
  ) {
    return undefined;
  }
  return name;
}

const IPV6_LITERAL = /^\[?[0-9a-f]*:[0-9a-f:.]*\]?$/i;
const isIpAddress = (host: string) => /^\d+(\.\d+){3}$/.test(host) || host.startsWith('[');

/**
 * The registrable domain of `host` (a host name, any case, Unicode or punycode), or why it has none: not a host
 * name, an IP address, a public suffix itself (`co.uk`, `github.io`), a name under no known suffix, or a loopback
 * name outside local mode.
 * @example registrableDomain('Docs.Alice.GitHub.io', { allowLocalNames: false }) // { ok: true, domain: 'alice.github.io' }
 */
export function registrableDomain(host: string, options: DomainNameOptions): DomainNameResult {
  if (IPV6_LITERAL.test(host.trim())) return { ok: false, reason: `${host.trim()} is an IP address, not a domain` };
  const name = foldHostName(host);
  if (name === undefined)
    return { ok: false, reason: `"${host.trim().slice(0, 100)}" is not a domain name (give it as example.com)` };
  if (isIpAddress(name)) return { ok: false, reason: `${name} is an IP address, not a domain` };
  const labels = name.split('.');
  if (labels.at(-1) === LOCAL_SUFFIX) {
    if (!options.allowLocalNames)
      return { ok: false, reason: `${name} is a loopback name, which no one can prove on the Internet` };
    if (labels.length < 2) return { ok: false, reason: 'localhost alone is no domain: use <name>.localhost' };
    return { ok: true, domain: labels.slice(-2).join('.') };
  }
  const parsed = parseImpl(
    name,
    5 /* FLAG.ALL */,
    suffixLookup(options.suffixes),
    { allowPrivateDomains: true, extractHostname: false },
    getEmptyResult(),
  );
  if (parsed.isIp) return { ok: false, reason: `${name} is an IP address, not a domain` };
  if (!parsed.isIcann && !parsed.isPrivate) return { ok: false, reason: `${name} is not under a known public suffix` };
  if (!parsed.domain)
    return {
      ok: false,
      reason: `${name} is a public suffix: prove a domain registered under it (like yourname.${name})`,
    };
  return { ok: true, domain: parsed.domain };
}

/** The registrable domain of an http(s) URL's host (see registrableDomain). */
export function registrableDomainOfUrl(url: string, options: DomainNameOptions): DomainNameResult {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  return registrableDomain(host, options);
}

/** True when `host` is `domain` or a name under it (both already folded). */
export const isHostUnder = (host: string, domain: string): boolean => host === domain || host.endsWith(`.${domain}`);
