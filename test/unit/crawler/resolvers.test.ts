import { describe, expect, it } from 'vitest';
import { createDohResolver } from '../../../src/adapters/resolver/doh';
import { createNodeDnsResolver } from '../../../src/adapters/resolver/node-dns';

type DohReply = { status?: number; body: unknown };

/** A DoH endpoint in memory: records each request and answers per record type. */
function dohEndpoint(replies: Record<'A' | 'AAAA', DohReply>) {
  const requests: Array<{ url: URL; accept: string | null }> = [];
  const fetchDouble = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    requests.push({ url, accept: new Headers(init?.headers).get('accept') });
    const reply = replies[url.searchParams.get('type') as 'A' | 'AAAA'];
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/dns-json' },
    });
  };
  return { fetch: fetchDouble as typeof fetch, requests };
}

describe('createDohResolver', () => {
  it('asks for A and AAAA with the dns-json media type and merges the answers, skipping CNAMEs', async () => {
    const endpoint = dohEndpoint({
      A: {
        body: {
          Status: 0,
          Answer: [
            { name: 'www.tool.example', type: 5, data: 'tool.example.' },
            { name: 'tool.example', type: 1, data: '93.184.216.34' },
          ],
        },
      },
      AAAA: { body: { Status: 0, Answer: [{ name: 'tool.example', type: 28, data: '2606:2800:220:1::1' }] } },
    });
    const addresses = await createDohResolver({ fetch: endpoint.fetch })('www.tool.example');
    expect(addresses).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
    expect(
      endpoint.requests.map((request) => [
        request.url.origin + request.url.pathname,
        request.url.searchParams.get('name'),
        request.url.searchParams.get('type'),
        request.accept,
      ]),
    ).toEqual([
      ['https://cloudflare-dns.com/dns-query', 'www.tool.example', 'A', 'application/dns-json'],
      ['https://cloudflare-dns.com/dns-query', 'www.tool.example', 'AAAA', 'application/dns-json'],
    ]);
  });

  it('returns private answers as they are (the policy, not the resolver, refuses them)', async () => {
    const endpoint = dohEndpoint({
      A: { body: { Status: 0, Answer: [{ type: 1, data: '10.0.0.1' }] } },
      AAAA: { body: { Status: 0 } },
    });
    expect(await createDohResolver({ fetch: endpoint.fetch })('internal.example')).toEqual(['10.0.0.1']);
  });

  it('fails for a name with no records (NXDOMAIN)', async () => {
    const endpoint = dohEndpoint({ A: { body: { Status: 3 } }, AAAA: { body: { Status: 3 } } });
    await expect(createDohResolver({ fetch: endpoint.fetch })('missing.example')).rejects.toThrow(/no A or AAAA/);
  });

  it('fails on a server failure status, an HTTP error or a record that is not an address', async () => {
    const servfail = dohEndpoint({ A: { body: { Status: 2 } }, AAAA: { body: { Status: 0 } } });
    await expect(createDohResolver({ fetch: servfail.fetch })('x.example')).rejects.toThrow(/status 2/);
    const httpError = dohEndpoint({ A: { status: 503, body: {} }, AAAA: { body: { Status: 0 } } });
    await expect(createDohResolver({ fetch: httpError.fetch })('x.example')).rejects.toThrow(/503/);
    const garbage = dohEndpoint({
      A: { body: { Status: 0, Answer: [{ type: 1, data: 'evil' }] } },
      AAAA: { body: { Status: 0 } },
    });
    await expect(createDohResolver({ fetch: garbage.fetch })('x.example')).rejects.toThrow(/non-address/);
  });

  it('uses a configured endpoint', async () => {
    const endpoint = dohEndpoint({
      A: { body: { Status: 0, Answer: [{ type: 1, data: '93.184.216.34' }] } },
      AAAA: { body: { Status: 0 } },
    });
    await createDohResolver({ fetch: endpoint.fetch, endpoint: 'https://dns.example/resolve' })('tool.example');
    expect(endpoint.requests[0]?.url.href).toBe('https://dns.example/resolve?name=tool.example&type=A');
  });
});

describe('createNodeDnsResolver', () => {
  it('resolves localhost from the hosts file to loopback addresses', async () => {
    const addresses = await createNodeDnsResolver()('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(['127.0.0.1', '::1']).toContain(address);
  });
});
