// An http:// address is crawled over https first, and over http only when https gives no page (src/crawler/https-first.ts).
// In-memory doubles only: no socket is opened, and any unexpected URL fails the test.
import { describe, expect, it } from 'vitest';
import { crawlPreferringHttps, httpsFormOf } from '../../../src/crawler';
import { inMemoryFetch, PUBLIC_IPV4, tableResolver } from './network-doubles';

const page = (title: string) => () =>
  new Response(`<html><head><title>${title}</title></head></html>`, { headers: { 'content-type': 'text/html' } });
const refused = () => {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 93.184.216.34:443'), { code: 'ECONNREFUSED' }),
  });
};

describe('httpsFormOf', () => {
  it('upgrades http on the default port only', () => {
    expect(httpsFormOf('http://acme.example/a?b=1')).toBe('https://acme.example/a?b=1');
    expect(httpsFormOf('http://acme.example:8080/')).toBeUndefined();
    expect(httpsFormOf('https://acme.example/')).toBeUndefined();
    expect(httpsFormOf('not a url')).toBeUndefined();
  });
});

describe('crawlPreferringHttps', () => {
  const resolver = tableResolver({ 'acme.example': [PUBLIC_IPV4], 'plain.example': [PUBLIC_IPV4] }).resolver;

  it('uses https when it answers, without asking http', async () => {
    const net = inMemoryFetch({ 'https://acme.example/': page('Secure') });
    const { result, httpsUnanswered } = await crawlPreferringHttps('http://acme.example/', {
      fetch: net.fetch,
      resolver,
    });
    expect(result).toMatchObject({ ok: true, finalUrl: 'https://acme.example/' });
    expect(httpsUnanswered).toBe(false);
    expect(net.calls).toEqual(['https://acme.example/']);
  });

  it('falls back to the http address when https is refused, and says so', async () => {
    const net = inMemoryFetch({ 'https://plain.example/': refused, 'http://plain.example/': page('Plain') });
    const { result, httpsUnanswered } = await crawlPreferringHttps('http://plain.example/', {
      fetch: net.fetch,
      resolver,
    });
    expect(result).toMatchObject({ ok: true, finalUrl: 'http://plain.example/', metadata: { title: 'Plain' } });
    expect(httpsUnanswered).toBe(true);
    expect(net.calls).toEqual(['https://plain.example/', 'http://plain.example/']);
  });

  it('falls back when https answers with an error page, and reports the http failure when both fail', async () => {
    const net = inMemoryFetch({
      'https://plain.example/': () => new Response('no', { status: 502, headers: { 'content-type': 'text/html' } }),
      'http://plain.example/': () => new Response('gone', { status: 410, headers: { 'content-type': 'text/html' } }),
    });
    const { result, httpsUnanswered } = await crawlPreferringHttps('http://plain.example/', {
      fetch: net.fetch,
      resolver,
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'http_error', status: 410 } });
    expect(httpsUnanswered).toBe(true);
  });

  it('does not ask again over http when the host itself does not resolve', async () => {
    const net = inMemoryFetch({});
    const missing = tableResolver({}).resolver;
    const { result, httpsUnanswered } = await crawlPreferringHttps('http://gone.example/', {
      fetch: net.fetch,
      resolver: missing,
    });
    expect(result).toMatchObject({ ok: false });
    expect(httpsUnanswered).toBe(false);
    expect(net.calls).toEqual([]);
  });

  it('crawls https and port-given addresses as given', async () => {
    const net = inMemoryFetch({ 'https://acme.example/': page('A'), 'http://acme.example:8080/': page('B') });
    expect((await crawlPreferringHttps('https://acme.example/', { fetch: net.fetch, resolver })).result).toMatchObject({
      ok: true,
    });
    expect(
      (await crawlPreferringHttps('http://acme.example:8080/', { fetch: net.fetch, resolver, allowPrivate: true }))
        .result,
    ).toMatchObject({ ok: true });
    expect(net.calls).toEqual(['https://acme.example/', 'http://acme.example:8080/']);
  });
});
