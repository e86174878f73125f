import { describe, expect, it } from 'vitest';
import { canonicalUrlKey, isSiteId, normalizeUrlArg } from '../../../src/cli/url-input';

describe('isSiteId', () => {
  it('tells a UUID from a URL', () => {
    expect(isSiteId('0b6f9a52-3c1e-4d7a-9f7e-2a4b5c6d7e8f')).toBe(true);
    expect(isSiteId('0B6F9A52-3C1E-4D7A-9F7E-2A4B5C6D7E8F')).toBe(true);
    expect(isSiteId('https://acme.example')).toBe(false);
    expect(isSiteId('0b6f9a52-3c1e-4d7a-9f7e')).toBe(false);
  });
});

describe('normalizeUrlArg', () => {
  it('keeps an http(s) URL and adds https:// to a bare host', () => {
    expect(normalizeUrlArg('https://acme.example/x')).toBe('https://acme.example/x');
    expect(normalizeUrlArg('http://tool.localhost:3000')).toBe('http://tool.localhost:3000');
    expect(normalizeUrlArg(' acme.example/x ')).toBe('https://acme.example/x');
  });

  it("rejects what the API rejects as a usage error (exit 2), in the API's words", () => {
    for (const [value, words] of [
      ['ftp://acme.example', 'url: The address must start with https:// or http://, not ftp:'],
      ['acme', "url: Enter the website's address, such as https://acme.com"],
      ['not a url', "url: Enter the website's address, such as https://acme.com"],
      ['http://localhost:3000', 'url: The address must have a full host name, such as acme.com'],
    ]) {
      expect(() => normalizeUrlArg(value!)).toThrow(expect.objectContaining({ exitCode: 2, message: words }));
    }
  });
});

describe('canonicalUrlKey', () => {
  it('compares URLs the way the service does', () => {
    const key = 'https://acme.example/tool?a=1&b=2';
    expect(canonicalUrlKey('HTTPS://WWW.Acme.Example:443/tool/?b=2&utm_source=x&a=1#top')).toBe(key);
    expect(canonicalUrlKey('https://acme.example/tool?a=1&b=2&ref=hn&fbclid=1&gclid=2')).toBe(key);
    expect(canonicalUrlKey('https://acme.example/')).toBe('https://acme.example');
    expect(canonicalUrlKey('http://acme.example/%74ool/index.html')).toBe(canonicalUrlKey('https://acme.example/tool'));
  });
});
