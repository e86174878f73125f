// Which origin is ours (src/origin.ts): configuration, or in local mode the bound address; never a Host header.
import { describe, expect, it } from 'vitest';
import { boundOrigin, isLoopbackHostname, originForRequest } from '../../src/origin';

const BOUND = 'http://127.0.0.1:8787';

describe('originForRequest', () => {
  it('is SITE_ORIGIN whatever the request says, in both modes', () => {
    for (const local of [true, false]) {
      const config = { local, siteOrigin: 'https://tooldir.example' };
      expect(originForRequest(config, BOUND, 'http://evil.test/api/jobs/sweep')).toBe('https://tooldir.example');
      expect(originForRequest(config, BOUND, 'http://localhost:8787/')).toBe('https://tooldir.example');
    }
  });

  it('local mode: a Host that is not a loopback name is the bound address', () => {
    const config = { local: true, siteOrigin: undefined };
    for (const url of [
      'http://evil.test/llms.txt',
      'http://evil.test:8787/',
      'http://10.0.0.5:8787/',
      'http://localhost.evil.test/',
      'http://127.0.0.1.evil.test/',
    ]) {
      expect(originForRequest(config, BOUND, url), url).toBe(BOUND);
    }
  });

  it('local mode: a loopback Host keeps its own origin, so localhost and 127.0.0.1 both work in a browser', () => {
    const config = { local: true, siteOrigin: undefined };
    expect(originForRequest(config, BOUND, 'http://localhost:8787/account')).toBe('http://localhost:8787');
    expect(originForRequest(config, BOUND, 'http://app.localhost:8787/')).toBe('http://app.localhost:8787');
    expect(originForRequest(config, BOUND, 'http://127.0.0.2:8787/')).toBe('http://127.0.0.2:8787');
    expect(originForRequest(config, BOUND, 'http://[::1]:8787/')).toBe('http://[::1]:8787');
  });

  it('outside local mode never falls back to the request, even if SITE_ORIGIN were missing', () => {
    expect(originForRequest({ local: false, siteOrigin: undefined }, BOUND, 'http://localhost:1/')).toBe(BOUND);
  });
});

describe('boundOrigin', () => {
  it('brackets IPv6 and maps the unspecified addresses to loopback', () => {
    expect(boundOrigin('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787');
    expect(boundOrigin('::1', 1)).toBe('http://[::1]:1');
    expect(boundOrigin('[::1]', 1)).toBe('http://[::1]:1');
    expect(boundOrigin('0.0.0.0', 2)).toBe('http://127.0.0.1:2');
    expect(boundOrigin('::', 3)).toBe('http://[::1]:3');
    expect(boundOrigin('localhost', 4)).toBe('http://localhost:4');
  });
});

describe('isLoopbackHostname', () => {
  it.each(['localhost', 'LOCALHOST', 'a.localhost', '127.0.0.1', '127.255.0.9', '[::1]'])('%s is loopback', (h) => {
    expect(isLoopbackHostname(h)).toBe(true);
  });
  it.each(['evil.test', 'localhost.evil.test', '127.0.0.1.nip.io', '10.0.0.1', '[::2]', '0.0.0.0', ''])(
    '%s is not',
    (h) => {
      expect(isLoopbackHostname(h)).toBe(false);
    },
  );
});
