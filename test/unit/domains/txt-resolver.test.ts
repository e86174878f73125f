// TXT records over DNS-over-HTTPS JSON: split strings joined, escapes read, NXDOMAIN as none, failures thrown.
import { describe, expect, it } from 'vitest';
import { createDohTxtResolver, joinCharacterStrings } from '../../../src/adapters/resolver/txt';

const doh = (body: unknown, status = 200) =>
  createDohTxtResolver({
    endpoint: 'http://127.0.0.1:9/dns-query',
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      expect(url.searchParams.get('type')).toBe('TXT');
      expect(new Headers(init?.headers).get('accept')).toBe('application/dns-json');
      return new Response(JSON.stringify(body), { status });
    }) as typeof fetch,
  });

describe('TXT over DNS-over-HTTPS', () => {
  it('joins a record split over strings and skips other types', async () => {
    const txt = doh({
      Status: 0,
      Answer: [
        { type: 16, data: '"tooldir-verifi" "cation=td_abc"' },
        { type: 5, data: 'alias.example.' },
        { type: 16, data: 'v=spf1 -all' },
      ],
    });
    expect(await txt('_tooldir.example.com')).toEqual(['tooldir-verification=td_abc', 'v=spf1 -all']);
  });
  it('answers no records for NXDOMAIN and throws on a server failure', async () => {
    expect(await doh({ Status: 3 })('nothing.example.com')).toEqual([]);
    await expect(doh({ Status: 2 })('x.example.com')).rejects.toThrow('status 2');
    await expect(doh({}, 502)('x.example.com')).rejects.toThrow('502');
  });
  it('reads escapes inside quoted strings', () => {
    expect(joinCharacterStrings('"a\\"b" "c\\\\d" "\\065"')).toBe('a"bc\\dA');
  });
});
