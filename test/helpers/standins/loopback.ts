// The network rule for stand-ins: they only ever connect onwards to loopback addresses.

/** True for 127.0.0.0/8, ::1 and localhost (bracketed IPv6 accepted). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}
