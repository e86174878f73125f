// Which IP addresses the crawler may connect to. Pure: no I/O, shared by the pre-flight check and
// the Node pinned fetch, so the address that is checked is the address that is connected to.
import ipaddr from 'ipaddr.js';

export interface AddressPolicyOptions {
  /** CRAWL_ALLOW_PRIVATE: also allow loopback, RFC 1918, CGNAT and unique-local targets (tests, local demos). */
  allowPrivate: boolean;
}

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

// Cloud metadata endpoints stay refused even with allowPrivate: no demo needs them and fd00:ec2::254
// would otherwise pass as unique-local. (169.254.169.254 covers AWS/GCP/Azure/OpenStack, 169.254.170.2 ECS.)
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::23'].map(
  (text) => ipaddr.parse(text).toNormalizedString(),
);

const IPV4_PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat']);
const IPV6_PRIVATE_RANGES = new Set(['loopback', 'uniqueLocal']);
// Global unicast is 2000::/3; everything else (including the deprecated IPv4-compatible ::a.b.c.d,
// which ipaddr.js calls "unicast") is special-purpose or unassigned.
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
// Only canonical dotted decimal: "0177.0.0.1", "127.1" or "2130706433" from a resolver would be read one way
// here and perhaps another by the socket layer, so such spellings are refused rather than interpreted.
const DOTTED_DECIMAL = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Decides whether one textual IP address is an acceptable crawl destination. */
export function checkAddress(text: string, options: AddressPolicyOptions): AddressVerdict {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!isCanonicalAddress(bare)) return refuse(`"${text}" is not a canonical IP address`);
  const address = ipaddr.parse(bare);
  if (METADATA_ADDRESSES.includes(address.toNormalizedString())) return refuse(`${text} is a cloud metadata address`);
  return address.kind() === 'ipv4'
    ? checkIPv4(address as ipaddr.IPv4, text, options)
    : checkIPv6(address as ipaddr.IPv6, text, options);
}

/** True when every address passes; otherwise the first refusal. An empty list is refused. */
export function checkAddresses(addresses: readonly string[], options: AddressPolicyOptions): AddressVerdict {
  if (addresses.length === 0) return refuse('the host has no addresses');
  for (const address of addresses) {
    const verdict = checkAddress(address, options);
    if (!verdict.allowed) return verdict;
  }
  return { allowed: true };
}

function checkIPv4(address: ipaddr.IPv4, text: string, options: AddressPolicyOptions): AddressVerdict {
  const range = address.range();
  if (range === 'unicast') return { allowed: true };
  if (options.allowPrivate && IPV4_PRIVATE_RANGES.has(range)) return { allowed: true };
  return refuse(`${text} is in a ${range} range`);
}

function checkIPv6(address: ipaddr.IPv6, text: string, options: AddressPolicyOptions): AddressVerdict {
  const embedded = embeddedIPv4(address);
  if (embedded) {
    const inner = checkAddress(embedded.toString(), options);
    return inner.allowed ? inner : refuse(`${text} embeds ${embedded.toString()}: ${inner.reason}`);
  }
  const range = address.range();
  if (range === 'unicast' && address.match(IPV6_GLOBAL_UNICAST)) return { allowed: true };
  if (options.allowPrivate && IPV6_PRIVATE_RANGES.has(range)) return { allowed: true };
  // 6to4, Teredo, local-use NAT64, site-local, reserved...: refused wholesale, whatever they embed.
  return refuse(`${text} is in a ${range === 'unicast' ? 'non-global' : range} IPv6 range`);
}

/** IPv4-mapped (::ffff:a.b.c.d) and well-known NAT64 (64:ff9b::a.b.c.d) reach an IPv4 host: judge that host. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64_WELL_KNOWN)) {
    const parts = address.parts;
    const high = parts[6] ?? 0;
    const low = parts[7] ?? 0;
    return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return null;
}

function isCanonicalAddress(text: string): boolean {
  if (DOTTED_DECIMAL.test(text)) return true;
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return false;
  const dotted = /[.\d]+$/.exec(text)?.[0] ?? '';
  return !dotted.includes('.') || DOTTED_DECIMAL.test(dotted);
}

function refuse(reason: string): AddressVerdict {
  return { allowed: false, reason };
}
