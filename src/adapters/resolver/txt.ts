import type { TxtResolver } from './resolver';

// TXT records, for DNS domain proofs (src/domains/dns-proof.ts): DNS over HTTPS (JSON) (Workers and the default); Node's resolver: node-txt.ts.

const TXT = 16;
const NOERROR = 0;
const NXDOMAIN = 3;

/** A TxtResolver that asks `endpoint?name=..&type=TXT` with `accept: application/dns-json` (Cloudflare's by default). */
export function createDohTxtResolver(options: { fetch: typeof fetch; endpoint?: string }): TxtResolver {
  const endpoint = options.endpoint ?? 'https://cloudflare-dns.com/dns-query';
  return async (name, signal) => {
    const url = new URL(endpoint);
    url.searchParams.set('name', name);
    url.searchParams.set('type', 'TXT');
    const response = await options.fetch(url.href, { headers: { accept: 'application/dns-json' }, signal });
    if (!response.ok) throw new Error(`DNS-over-HTTPS answered ${response.status} for TXT ${name}`);
    const body = (await response.json()) as { Status?: unknown; Answer?: unknown };
    if (body.Status === NXDOMAIN) return [];
    if (body.Status !== NOERROR) throw new Error(`DNS-over-HTTPS status ${String(body.Status)} for TXT ${name}`);
    if (!Array.isArray(body.Answer)) return [];
    return (body.Answer as Array<{ type?: unknown; data?: unknown }>)
      .filter((answer) => answer.type === TXT && typeof answer.data === 'string')
      .map((answer) => joinCharacterStrings(answer.data as string));
  };
}

/**
 * DoH JSON writes a TXT record in zone-file form: `"part one" "part two"` (resolvers differ: some leave out the
 * quotes of a single string). The quoted strings are unescaped and joined; unquoted text is taken as it is.
 */
export function joinCharacterStrings(data: string): string {
  const text = data.trim();
  if (!text.startsWith('"')) return text;
  let out = '';
  let inside = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') inside = !inside;
    else if (inside && ch === '\\' && i + 1 < text.length) {
      const digits = /^\d{3}/.exec(text.slice(i + 1));
      if (digits) {
        out += String.fromCharCode(Number(digits[0]));
        i += 3;
      } else out += text[++i];
    } else if (inside) out += ch;
  }
  return out;
}
