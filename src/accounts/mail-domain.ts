// The domain of an e-mail address as mail delivers to it. Mail software maps a typed domain with UTS #46 (IDNA)
// before it looks it up: `ＭＡＩＬＩＮＡＴＯＲ．com`, `mailinator。com` (ideographic full stop) and `mailinator.com.`
// (the root's trailing dot) all reach mailinator.com. The disposable-address rule and the one-account-per-address
// rule must see that same domain, or a second spelling is a second account and an unlisted domain.
//
// UTS #46 comes from the WHATWG URL parser's host step (`new URL('http://' + domain).hostname`), which Node and
// workerd both implement (node:url's domainToASCII is not in Workers); test/unit/accounts/mail-domain.test.ts holds
// the mappings this relies on.

/** Characters that would make the URL parser read something other than a host (a port, a path, userinfo, %-decoding). */
const NOT_IN_A_DOMAIN = /[\s\u0000-\u001f\u007f/\\?#@:%[\]]/u;
const MAX_DOMAIN_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/**
 * The ASCII (A-label) form of a mail domain, lower-case, without the root's trailing dot; undefined when it is no
 * domain: empty labels (`a..example`, `.example`), a single label, an IP address, or text UTS #46 refuses.
 *
 * @example foldMailDomain('ｍａｉｌｉｎａｔｏｒ。ｃｏｍ.') // 'mailinator.com'
 */
export function foldMailDomain(typed: string): string | undefined {
  if (typed.length === 0 || typed.length > MAX_DOMAIN_LENGTH + 10 || NOT_IN_A_DOMAIN.test(typed)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${typed}`).hostname;
  } catch {
    return undefined;
  }
  // One trailing dot names the root and is the same domain; a second one is an empty label.
  const domain = host.endsWith('.') ? host.slice(0, -1) : host;
  const labels = domain.split('.');
  if (domain.length > MAX_DOMAIN_LENGTH || labels.length < 2) return undefined;
  if (labels.some((label) => label.length === 0 || label.length > MAX_LABEL_LENGTH)) return undefined;
  // The parser reads `1.2.3.4` and `0x7f.1` as IPv4 addresses; no top-level domain is numeric.
  if (/^\d+$/.test(labels.at(-1)!)) return undefined;
  return domain;
}
