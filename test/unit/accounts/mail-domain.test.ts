import { describe, expect, it } from 'vitest';
import { foldMailDomain } from '../../../src/accounts/mail-domain';
import { normalizeEmail } from '../../../src/accounts/sign-in';

// The domain of an address as mail reads it (UTS #46 through the URL parser's host step): the disposable-address
// and one-account-per-address rules compare this form (issue 27).
describe('foldMailDomain', () => {
  it.each([
    ['full-width letters', 'ｍａｉｌｉｎａｔｏｒ.ｃｏｍ', 'mailinator.com'],
    ['upper case, full-width and plain', 'ＭＡＩＬＩＮＡＴＯＲ.COM', 'mailinator.com'],
    ['ideographic full stop U+3002', 'mailinator\u3002com', 'mailinator.com'],
    ['full-width full stop U+FF0E', 'mailinator\uff0ecom', 'mailinator.com'],
    ['half-width ideographic full stop U+FF61', 'mailinator\uff61com', 'mailinator.com'],
    ["the root's trailing dot", 'mailinator.com.', 'mailinator.com'],
    ['a trailing ideographic full stop', 'mailinator.com\u3002', 'mailinator.com'],
    ['an IDN to its A-label', 'bücher.example', 'xn--bcher-kva.example'],
    ['an A-label stays', 'xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a soft hyphen is mapped away', 'mailin\u00adator.com', 'mailinator.com'],
    ['a subdomain', 'inbox.Mailinator.com', 'inbox.mailinator.com'],
  ])('%s: %j is %j', (_label, typed, folded) => {
    expect(foldMailDomain(typed)).toBe(folded);
  });

  it.each([
    ['two dots', 'mailinator..com'],
    ['a leading dot', '.mailinator.com'],
    ['two trailing dots', 'mailinator.com..'],
    ['an ideographic full stop beside a dot', 'mailinator.\u3002com'],
    ['a single label', 'localhost'],
    ['an empty domain', ''],
    ['an IPv4 address', '127.0.0.1'],
    ['an IPv4 address in another spelling', '0x7f.1'],
    ['a port', 'mailinator.com:25'],
    ['a path', 'mailinator.com/x'],
    ['a backslash', 'mailinator.com\\x'],
    ['percent-encoding', 'm%61ilinator.com'],
    ['userinfo', 'a@mailinator.com'],
    ['a bracketed literal', '[127.0.0.1]'],
    ['a space', 'mailinator .com'],
    ['a label over 63 characters', `${'a'.repeat(64)}.com`],
    ['invalid punycode', 'xn--a.com'],
  ])('refuses %s: %j', (_label, typed) => {
    expect(foldMailDomain(typed)).toBeUndefined();
  });
});

describe("normalizeEmail folds the domain, not the local part's letters beyond case", () => {
  it('gives one address for every spelling mail delivers alike', () => {
    for (const typed of ['Ada@ＥＸＡＭＰＬＥ.com', 'ada@example\u3002com', 'ada@example.com.', ' ADA@Example.Com ']) {
      expect(normalizeEmail(typed), typed).toBe('ada@example.com');
    }
    expect(normalizeEmail('ada@bücher.example')).toBe('ada@xn--bcher-kva.example');
  });

  it('refuses an address whose domain has an empty label', () => {
    for (const typed of ['ada@example..com', 'ada@.example.com', 'ada@example.com..', 'ada@'])
      expect(normalizeEmail(typed), typed).toBeUndefined();
  });
});
