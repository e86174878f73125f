import { describe, expect, it } from 'vitest';
import { canonicalUrl, checkSubmittedUrl } from '../../../src/submissions/url';

const canonical = (text: string) => {
  const check = checkSubmittedUrl(text);
  if (!check.ok) throw new Error(check.message);
  return canonicalUrl(check.url);
};

describe('canonicalUrl', () => {
  it.each([
    ['HTTPS://WWW.Example.COM/', 'https://example.com'],
    ['https://example.com:443/tools/', 'https://example.com/tools'],
    ['http://example.com:80', 'https://example.com'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a///', 'https://example.com/a'],
    ['https://example.com/?utm_source=x&utm_medium=y&ref=hn&fbclid=1&gclid=2', 'https://example.com'],
    ['https://example.com/?mc_cid=abc&mc_eid=def&UTM_Campaign=z', 'https://example.com'],
    ['https://example.com/?b=2&a=1', 'https://example.com?a=1&b=2'],
    ['https://example.com/?a=2&a=1', 'https://example.com?a=1&a=2'],
    ['https://example.com./x', 'https://example.com/x'],
    ['https://www.example.com/Path', 'https://example.com/Path'],
  ])('%s -> %s', (input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  describe('http and https of the same host and path are one site', () => {
    it.each([
      ['http://example.com/app', 'https://example.com/app'],
      ['http://www.example.com/app/', 'https://example.com/app'],
      ['http://example.com:8080/app', 'https://example.com:8080/app'],
    ])('%s = %s', (a, b) => {
      expect(canonical(a)).toBe(canonical(b));
    });

    it('keeps a non-default port apart from the default one', () => {
      expect(canonical('http://example.com:8080')).not.toBe(canonical('https://example.com'));
    });
  });

  describe('percent-encoding (RFC 3986 6.2.2.1-2)', () => {
    it.each([
      ['https://example.com/%61pp', 'https://example.com/app'],
      ['https://example.com/%7Euser', 'https://example.com/~user'],
      ['https://example.com/%7euser', 'https://example.com/~user'],
      ['https://example.com/a%2Db%2E%5Fc%30', 'https://example.com/a-b._c0'],
      ['https://example.com/a%2fb', 'https://example.com/a%2Fb'],
      ['https://example.com/a%2Fb', 'https://example.com/a%2Fb'],
      ['https://example.com/a%3ab', 'https://example.com/a%3Ab'],
      ['https://example.com/caf%c3%a9', 'https://example.com/caf%C3%A9'],
      ['https://example.com/café', 'https://example.com/caf%C3%A9'],
      ['https://example.com/%2561', 'https://example.com/%2561'],
      ['https://example.com/100%', 'https://example.com/100%'],
      ['https://example.com/a%zz', 'https://example.com/a%zz'],
      ['https://example.com/x?q=%7e&a=%61', 'https://example.com/x?a=a&q=%7E'],
      ['https://example.com/x?q=~&a=a', 'https://example.com/x?a=a&q=%7E'],
      ['https://example.com/x?path=%2f', 'https://example.com/x?path=%2F'],
    ])('%s -> %s', (input, expected) => {
      expect(canonical(input)).toBe(expected);
    });

    it('keeps an encoded slash apart from a real one', () => {
      expect(canonical('https://example.com/a%2Fb')).not.toBe(canonical('https://example.com/a/b'));
    });

    it('resolves dot segments, also when spelled %2e', () => {
      expect(canonical('https://example.com/a/%2e%2E/b')).toBe('https://example.com/b');
    });
  });

  describe('index files', () => {
    it.each([
      ['https://example.com/index.html', 'https://example.com'],
      ['https://example.com/index.htm', 'https://example.com'],
      ['https://example.com/index.php', 'https://example.com'],
      ['https://example.com/app/index.html', 'https://example.com/app'],
      ['https://example.com/app/index.html/', 'https://example.com/app'],
      ['https://example.com/%61pp/%69ndex.html', 'https://example.com/app'],
      ['https://example.com/index.php?page=2', 'https://example.com?page=2'],
      ['https://example.com/app/index.php?utm_source=x', 'https://example.com/app'],
      ['https://example.com/index.html#top', 'https://example.com'],
      ['https://example.com/INDEX.HTML', 'https://example.com'],
      ['https://example.com/app/Index.Htm', 'https://example.com/app'],
      ['https://example.com/app/INDEX.PHP?page=2', 'https://example.com/app?page=2'],
    ])('%s -> %s', (input, expected) => {
      expect(canonical(input)).toBe(expected);
    });

    it.each([
      ['https://example.com/index.html.bak', 'https://example.com/index.html.bak'],
      ['https://example.com/myindex.html', 'https://example.com/myindex.html'],
      ['https://example.com/index.html/app', 'https://example.com/index.html/app'],
      ['https://example.com/index.asp', 'https://example.com/index.asp'],
      ['https://example.com/INDEX.HTML.bak', 'https://example.com/INDEX.HTML.bak'],
      ['https://example.com/index.html/index.html', 'https://example.com/index.html'],
    ])('only drops the whole last segment: %s -> %s', (input, expected) => {
      expect(canonical(input)).toBe(expected);
    });

    it('keeps the query of index.php apart from the page without it', () => {
      expect(canonical('https://example.com/index.php?page=2')).not.toBe(canonical('https://example.com/'));
    });
  });

  describe('hosts', () => {
    it.each([
      ['https://bücher.example/', 'https://xn--bcher-kva.example'],
      ['https://BÜCHER.example/', 'https://xn--bcher-kva.example'],
      ['http://www.bücher.example/', 'https://xn--bcher-kva.example'],
      ['https://ｅｘａｍｐｌｅ.com/', 'https://example.com'],
      ['https://ex%61mple.com/', 'https://example.com'],
      ['https://www.com/', 'https://www.com'],
      ['https://www.example/', 'https://www.example'],
      ['https://www.www.example.com/', 'https://www.example.com'],
    ])('%s -> %s', (input, expected) => {
      expect(canonical(input)).toBe(expected);
    });
  });

  describe('repeated slashes', () => {
    it.each([
      ['https://example.com//app', 'https://example.com/app'],
      ['https://example.com///app//tools///', 'https://example.com/app/tools'],
      ['https://example.com//app//index.html', 'https://example.com/app'],
      ['https://example.com//', 'https://example.com'],
      ['https://example.com//?a=1', 'https://example.com?a=1'],
    ])('%s -> %s', (input, expected) => {
      expect(canonical(input)).toBe(expected);
    });

    it('keeps an encoded slash apart from an empty segment', () => {
      expect(canonical('https://example.com/a%2F%2Fb')).not.toBe(canonical('https://example.com/a/b'));
    });
  });

  it('keeps path case: /App and /app are different pages', () => {
    expect(canonical('https://example.com/App')).not.toBe(canonical('https://example.com/app'));
  });

  it('treats www, scheme, encoding, index and tracking variants of one URL as the same', () => {
    expect(canonical('http://WWW.x.example:80/%61pp/index.html?utm_campaign=z#top')).toBe(
      canonical('https://x.example/app'),
    );
  });

  it('two different sites stay apart', () => {
    expect(canonical('https://x.example/app')).not.toBe(canonical('https://x.example/apps'));
    expect(canonical('https://x.example/app')).not.toBe(canonical('https://y.example/app'));
    expect(canonical('https://x.example/?a=1')).not.toBe(canonical('https://x.example/?a=2'));
  });
});

describe('checkSubmittedUrl', () => {
  it.each([
    'https://example.com',
    'http://sub.example.co.uk/path?q=1',
    'https://127.0.0.1/',
    'https://[2001:db8::1]/',
    'https://example.com:8080',
    '  https://example.com  ',
  ])('accepts %s', (url) => {
    expect(checkSubmittedUrl(url).ok).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['example.com', 'absolute'],
    ['/relative/path', 'absolute'],
    ['ftp://example.com', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['data:text/html,hi', 'http or https'],
    ['https://user:pass@example.com', 'credentials'],
    ['https://user@example.com', 'credentials'],
    ['https://localhost/', 'host'],
    ['https://exa_mple.com/', 'host'],
    ['https://-bad.example/', 'host'],
    [`https://${'a'.repeat(64)}.example/`, 'host'],
    [`https://${'abcdefghi.'.repeat(26)}com/`, 'host'],
    ['https://example.com:99999/', 'absolute'],
    ['https://exa mple.com/', 'spaces'],
    [`https://example.com/${'a'.repeat(2100)}`, '2048'],
    ['http:/example.com', 'two slashes'],
  ])('refuses %s (%s)', (url, fragment) => {
    const check = checkSubmittedUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(new RegExp(fragment));
    // What a form asks for instead ("a full address that starts with https://") is chosen by this flag, not the text.
    if (!check.ok) expect(check.notHttpUrl ?? false).toBe(fragment === 'absolute' || fragment === 'http or https');
  });
});
