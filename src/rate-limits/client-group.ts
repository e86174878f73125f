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
  const address = ip.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return address;
  if (!ipaddr.IPv6.isValid(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
