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
    ['http://example.com:80', 'http://example.com'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a///', 'https://example.com/a'],
    ['https://example.com/?utm_source=x&utm_medium=y&ref=hn&fbclid=1&gclid=2', 'https://example.com'],
    ['https://example.com/?b=2&a=1', 'https://example.com?a=1&b=2'],
    ['https://example.com/?a=2&a=1', 'https://example.com?a=1&a=2'],
    ['https://example.com./x', 'https://example.com/x'],
    ['https://www.example.com/Path', 'https://example.com/Path'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example'],
  ])('%s -> %s', (input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  it('keeps the scheme, as DECISIONS.md lists no rule that merges http and https', () => {
    expect(canonical('http://example.com')).not.toBe(canonical('https://example.com'));
  });

  it('treats www and tracking variants of one URL as the same', () => {
    expect(canonical('https://www.example.com/app/?utm_campaign=z')).toBe(canonical('https://example.com/app'));
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
    ['http:/example.com', 'absolute'],
  ])('refuses %s (%s)', (url, fragment) => {
    const check = checkSubmittedUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(new RegExp(fragment));
  });
});
