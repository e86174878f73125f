// The registrable-domain rule (src/domain-names.ts) over the real Public Suffix List from node_modules.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compilePublicSuffixRules,
  registrableDomain,
  registrableDomainOfUrl,
  type PublicSuffixRules,
} from '../../src/domain-names';
import { createPackagePublicSuffixes } from '../../functions/node/public-suffixes';

let suffixes: PublicSuffixRules;
beforeAll(async () => {
  suffixes = compilePublicSuffixRules(await createPackagePublicSuffixes().rules());
});
const internet = (host: string) => registrableDomain(host, { allowLocalNames: false, suffixes });
const local = (host: string) => registrableDomain(host, { allowLocalNames: true, suffixes });

describe('registrableDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Docs.Example.COM.', 'example.com'],
    ['a.b.co.uk', 'b.co.uk'],
    ['docs.alice.github.io', 'alice.github.io'],
    ['ｅｘａｍｐｌｅ．com', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['XN--BCHER-KVA.de', 'xn--bcher-kva.de'],
    ['www.ck', 'www.ck'], // the exception !www.ck beats the wildcard *.ck
    ['a.www.ck', 'www.ck'],
    ['shop.公司.cn', 'shop.xn--55qx5d.cn'], // a Unicode rule of the list matches the punycode host
    ['bucket.s3.amazonaws.com', 'bucket.s3.amazonaws.com'],
  ])('%s → %s', (host, domain) => {
    expect(internet(host)).toEqual({ ok: true, domain });
  });

  it.each([
    ['com', 'public suffix'],
    ['co.uk', 'public suffix'],
    ['github.io', 'public suffix'],
    ['anything.ck', 'public suffix'],
    ['203.0.113.7', 'IP address'],
    ['2130706433', 'IP address'], // the URL parser reads it as 127.0.0.1
    ['[::1]', 'IP address'],
    ['2001:db8::1', 'IP address'],
    ['tool.unknowntld', 'known public suffix'],
    ['app.localhost', 'loopback name'],
    ['https://example.com', 'not a domain name'],
    ['a@example.com', 'not a domain name'],
    ['a..example.com', 'not a domain name'],
    ['', 'not a domain name'],
  ])('refuses %s (%s)', (host, words) => {
    const result = internet(host);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(words);
  });

  it('makes each <name>.localhost its own domain only in local mode', () => {
    expect(local('app.localhost')).toEqual({ ok: true, domain: 'app.localhost' });
    expect(local('docs.App.LOCALHOST')).toEqual({ ok: true, domain: 'app.localhost' });
    expect(local('other.localhost')).toEqual({ ok: true, domain: 'other.localhost' });
    expect(local('localhost').ok).toBe(false);
  });

  it('reads a URL by its host', () => {
    expect(
      registrableDomainOfUrl('https://Docs.Example.com:8443/path?q', { allowLocalNames: false, suffixes }),
    ).toEqual({ ok: true, domain: 'example.com' });
    expect(registrableDomainOfUrl('not a url', { allowLocalNames: false, suffixes }).ok).toBe(false);
  });
});
