import ipaddr from 'ipaddr.js';

/**
 * The group a client address is counted in, for every per-IP limit (docs/decisions.md "Rate limits"):
 * an IPv4 address as is (also when IPv4-mapped, as Node reports IPv4 peers on a dual-stack socket), an IPv6
 * address by its /64, since one subscriber usually holds a whole /64 and per-address IPv6 limits would hand one
 * host 2^64 budgets. Anything else (`unknown`, a test's made-up label) is kept verbatim, so the function never
 * throws and applying it twice changes nothing.
 * @example
 * clientGroup('2001:db8:1:2::abcd') // '2001:db8:1:2::/64'
 * clientGroup('::ffff:203.0.113.7') // '203.0.113.7'
 */
export function clientGroup(ip: string): string {
  // Brackets and a zone index (`fe80::1%en0`) are spellings of the same address.
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return address;
  if (!ipaddr.IPv6.isValid(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** The last part of an identifier that is a /64 client group (clientGroup's form): four hex groups, then `::/64`. */
const GROUP_64 = /([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/;

/**
 * The IPv6 /48 network of an identifier that ends in a /64 client group (what the edges pass: the group itself,
 * or a bucket name such as `request:ip:<group>`), with whatever came before it kept; undefined for anything else
 * (an IPv4 address, an account id, `unknown`). Per-IP limits and the statistics' per-client bounds count a /48
 * beside its /64s (src/rate-limits/policies.ts PREFIX_48_MULTIPLIER).
 * @example
 * prefix48Of('2001:db8:1:2::/64') // '2001:db8:1::/48'
 * prefix48Of('request:ip:2001:db8:1:2::/64') // 'request:ip:2001:db8:1::/48'
 */
export function prefix48Of(identifier: string): string | undefined {
  const match = GROUP_64.exec(identifier);
  return match ? `${identifier.slice(0, match.index)}${match[1]}::/48` : undefined;
}
