import { describe, expect, it } from 'vitest';
import { urlSpellingProblem } from '../../src/url-spelling';

// Spellings WHATWG parsers rewrite and RFC 3986 parsers keep (issue 27): refused, with a message naming the field.
describe('urlSpellingProblem', () => {
  it.each([
    ["the issue's backslash before @", 'http://tool.localhost:8000\\@evil.example/', /backslash/],
    ['backslashes for the slashes', 'https:\\\\evil.example/', /backslash/],
    ['a backslash in the path', 'https://good.example/a\\b', /backslash/],
    ['a backslash in the query', 'https://good.example/?a=\\', /backslash/],
    ['three slashes', 'https:///evil.example/', /two slashes/],
    ['one slash', 'http:/evil.example/', /two slashes/],
    ['no slash', 'https:evil.example', /two slashes/],
    ['a tab', 'https://ev\til.example/', /control/],
    ['a line feed', 'https://evil.example/\n', /control/],
    ['a carriage return', 'https://evil\r.example/', /control/],
    ['a no-break space', 'https://evil.example/\u00a0', /spaces/],
    ['an ideographic space', 'https://evil.example/\u3000x', /spaces/],
    ['a NUL', 'https://evil.example/\u0000', /control/],
  ])('refuses %s', (_label, text, words) => {
    const problem = urlSpellingProblem(text, 'url');
    expect(problem).toMatch(/^url /);
    expect(problem).toMatch(words);
  });

  it('names the field it is given', () => {
    expect(urlSpellingProblem('https://a.example\\b', 'redirect')).toMatch(/^redirect must not contain a backslash/);
  });

  it.each([
    'https://example.com',
    'HTTP://Example.COM:8080/a/./b/../c?q=1#f',
    'https://ｅｘａｍｐｌｅ.com/x',
    'https://ex%61mple.com/',
    'https://example.com/café',
    'https://[2001:db8::1]/',
  ])('leaves %s to the parser (stored as its href)', (text) => {
    expect(urlSpellingProblem(text, 'url')).toBeUndefined();
  });
});
