import { describe, expect, it } from 'vitest';
import { canonicalUrl, checkSubmittedUrl, NOT_A_URL, readSubmittedUrl, urlNotices } from '../../../src/submissions/url';

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
    ['', "website's address"],
    ['example.com', "website's address"],
    ['/relative/path', "website's address"],
    ['ftp://example.com', 'start with https:// or http://, not ftp:'],
    ['javascript:alert(1)', 'start with https:// or http://, not javascript:'],
    ['file:///etc/passwd', 'not file:'],
    ['data:text/html,hi', 'not data:'],
    ['https://user:pass@example.com', 'user name or password'],
    ['https://user@example.com', 'user name or password'],
    ['https://localhost/', 'full host name'],
    ['https://exa_mple.com/', 'full host name'],
    ['https://-bad.example/', 'full host name'],
    [`https://${'a'.repeat(64)}.example/`, 'full host name'],
    [`https://${'abcdefghi.'.repeat(26)}com/`, 'full host name'],
    ['https://example.com:99999/', "website's address"],
    ['https://exa mple.com/', 'spaces'],
    [`https://example.com/${'a'.repeat(2100)}`, '2048'],
    ['http:/example.com', 'two slashes'],
  ])('refuses %s (%s)', (url, fragment) => {
    const check = checkSubmittedUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain(fragment);
    // What a form does with it is chosen by this flag, not by the text.
    if (!check.ok) expect(check.notHttpUrl ?? false).toBe(fragment.includes('website') || fragment.includes('not '));
  });
});

describe('readSubmittedUrl: an address as people type it, on every surface', () => {
  it.each([
    ['acme.com', 'https://acme.com/'],
    ['  Acme.COM  ', 'https://acme.com/'],
    ['acme.com/pricing?x=1', 'https://acme.com/pricing?x=1'],
    ['www.acme.co.uk:8080/x', 'https://www.acme.co.uk:8080/x'],
    ['tool.localhost', 'https://tool.localhost/'],
  ])('adds https:// to the bare host %s, and says so', (typed, href) => {
    const read = readSubmittedUrl(typed);
    expect(read).toMatchObject({ ok: true, schemeAdded: true });
    expect(read.ok && read.url.href).toBe(href);
    expect(urlNotices(typed)).toEqual([`No scheme was given, so https:// was added: ${href}`]);
  });

  it.each(['https://acme.com', 'http://acme.com/x'])('keeps %s as typed and has nothing to tell', (typed) => {
    expect(readSubmittedUrl(typed)).toMatchObject({ ok: true, schemeAdded: false });
    expect(urlNotices(typed)).toEqual([]);
  });

  it.each([
    'not a url',
    'acme',
    'localhost:8787',
    'http://',
    'https://',
    'https:// acme.com',
    '',
    '   ',
    '//acme.com',
    'acme .com',
  ])('answers %j with the one "not an address" sentence, which names nothing as missing', (typed) => {
    const read = readSubmittedUrl(typed);
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect([NOT_A_URL, 'The address must not contain spaces or control characters']).toContain(read.message);
  });

  it('never tells an address that starts with http:// or https:// to start with it', () => {
    const broken = [
      'http://',
      'https://',
      'http://a',
      'https://u:p@acme.com',
      'http://acme.com:0',
      'https://exa mple.com',
      'http:///acme.com',
      'https://acme.com\\x',
      'http://[::1',
      'https://acme..com',
    ];
    for (const typed of broken) {
      const read = readSubmittedUrl(typed);
      expect(read.ok, typed).toBe(false);
      if (!read.ok) expect(read.message, typed).not.toMatch(/start with|starts with|must (use|begin)/i);
    }
  });

  it('refuses another scheme by its name, not as a missing one', () => {
    expect(readSubmittedUrl('mailto:team@acme.com')).toEqual({
      ok: false,
      message: 'The address must start with https:// or http://, not mailto:',
      notHttpUrl: true,
    });
  });
});
