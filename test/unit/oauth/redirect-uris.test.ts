// The redirect URI rule (src/oauth/redirect-uris.ts) and what the consent page derives from an accepted URI: the
// place it names and the CSP form-action source, which must never carry anything the registration did not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redirectTarget, redirectUriMatches, redirectUriProblem } from '../../../src/oauth/redirect-uris';
import { isOurResource } from '../../../src/oauth/resource';
import { propertyRuns } from '../../helpers/property-runs';

/** A CSP source expression of the kinds redirectTarget may produce: a scheme, or scheme://host[:port]. */
const CSP_SOURCE = /^[a-z][a-z0-9+.-]*:(\/\/([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?)?$/;

describe('redirectUriProblem', () => {
  it("accepts https, loopback http, reverse-domain schemes and the editors' schemes", () => {
    for (const uri of [
      'https://app.example/cb',
      'https://app.example',
      'https://app.example?x=1',
      'http://127.0.0.1:4000/cb',
      'http://[::1]:4000/cb',
      'http://localhost/cb',
      'cursor://anysphere.cursor-mcp/oauth/callback',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'vscode://vscode.github-authentication/did-authenticate',
      'vscode-insiders://saoudrizwan.claude-dev/callback',
      'windsurf://saoudrizwan.claude-dev/callback',
      'com.example.app:/oauth2redirect/example-provider',
      'com.example.app:cb',
      'com.googleusercontent.apps.123-abc:/oauth2redirect',
      'net.openid.appauthdemo://Host-Name/cb',
      'xn--p1ai.example.app:/cb',
    ]) {
      expect(redirectUriProblem(uri), uri).toBeUndefined();
    }
  });

  it('refuses, saying why', () => {
    const cases: [unknown, RegExp][] = [
      ['', /non-empty string/],
      [42, /non-empty string/],
      ['https://app.example/' + 'x'.repeat(2000), /at most 2000 characters/],
      ['javascript:alert(1)', /scheme javascript:, which no app/],
      // Schemes an operating system maps to its own tools, and others that are no app's own (RFC 8252 §7.1).
      ['ms-msdt:/id PCWDiagnostic /skip force', /spaces or control characters/],
      ['ms-msdt:/id', /scheme ms-msdt: is neither https.*reverse domain name/],
      ['search-ms:query=x&crumb=location:\\\\evil.example\\share', /scheme search-ms: is neither/],
      ['intent://scan/#Intent;scheme=zxing;end', /fragment/],
      ['intent://scan/', /scheme intent: is neither/],
      ['jar:https://app.example/a.jar!/cb', /scheme jar: is neither/],
      ['chrome-extension://abcdefghijklmnop/cb', /scheme chrome-extension: is neither/],
      ['x-my-app+v2.beta://Host-Name/cb', /scheme x-my-app\+v2\.beta: is neither/],
      ['x-apple.systempreferences:com.apple.preference', /scheme x-apple\.systempreferences: is neither/],
      ['myapp://cb', /scheme myapp: is neither/],
      ['com.:/cb', /scheme com\.: is neither/],
      ['com..example:/cb', /scheme com\.\.example: is neither/],
      ['c.example:/cb', /scheme c\.example: is neither/],
      ['c0m.example:/cb', /scheme c0m\.example: is neither/],
      ['com.-example:/cb', /scheme com\.-example: is neither/],
      ['com.example-:/cb', /scheme com\.example-: is neither/],
      [`com.${'a'.repeat(64)}:/cb`, /is neither/],
      [`com.${'a'.repeat(100)}.example:/cb`, /scheme com\.a{36}…: is neither/],
      ['data:text/html,x', /scheme data:/],
      ['file:///etc/passwd', /scheme file:/],
      ['vbscript:x', /scheme vbscript:/],
      ['about:blank', /scheme about:/],
      ['blob:https://a.example/1', /scheme blob:/],
      ['wss://a.example/cb', /scheme wss:/],
      ['http://app.example/cb', /http on a host other than loopback/],
      ['http://localhost.evil.example/cb', /http on a host other than loopback/],
      ['https://app.example/cb#', /fragment/],
      ['cursor://a/cb#x', /fragment/],
      ['https://u:p@app.example/cb', /credentials/],
      ['cursor://u@host/cb', /credentials/],
      ['https://a;b.example/cb', /characters a host name cannot have/],
      ["cursor://a'b/cb", /characters a host name cannot have/],
      ['cursor://a,b/cb', /characters a host name cannot have/],
      ['https://a_b.example/cb', /characters a host name cannot have/],
      ['https://a%41.example/cb', /not written as a URL parser reads it/],
      ['HTTPS://APP.EXAMPLE/cb', /not written as a URL parser reads it/],
      ['Com.Example.App:/cb', /not written as a URL parser reads it/],
      ['https://app.example:443/cb', /not written as a URL parser reads it/],
      ['https://app.example.:443/cb', /not written as a URL parser reads it/],
      ['https://app\t.example/cb', /spaces or control characters/],
      ['https://app.example/c b', /spaces or control characters/],
      ['cursor://host/cb\r\nSet-Cookie: x=1', /spaces or control characters/],
      ['//app.example/cb', /not an absolute URL/],
    ];
    for (const [uri, why] of cases) expect(redirectUriProblem(uri), String(uri)).toMatch(why);
  });

  it('whatever string is accepted, the consent page derives a CSP source and a label from it and nothing else', () => {
    const schemes = fc.constantFrom(
      'https',
      'http',
      'cursor',
      'vscode',
      'com.example.app',
      'javascript',
      'data',
      'x',
      'ms-msdt',
      'com.x',
    );
    const hosts = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('127.0.0.1', 'localhost', '[::1]', 'app.example', 'a;b', "a'b", 'a b'),
    );
    const uri = fc.oneof(
      fc
        .tuple(schemes, fc.constantFrom('://', ':', ':/'), hosts, fc.string({ maxLength: 20 }))
        .map(([s, sep, h, rest]) => `${s}${sep}${h}${rest}`),
      fc.string({ maxLength: 60 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
    );
    fc.assert(
      fc.property(uri, (value) => {
        if (redirectUriProblem(value) !== undefined) return;
        const target = redirectTarget(value);
        expect(target.formAction, value).toMatch(CSP_SOURCE);
        expect(target.label, value).not.toMatch(/[\s;,'"<>\u0000-\u001f\u007f]/);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('redirectTarget', () => {
  it('names a host for http(s) and an app scheme otherwise; allows only that origin or scheme', () => {
    expect(redirectTarget('https://app.example/cb')).toEqual({
      label: 'app.example',
      formAction: 'https://app.example',
    });
    expect(redirectTarget('http://127.0.0.1:4000/cb')).toEqual({
      label: '127.0.0.1:4000',
      formAction: 'http://127.0.0.1:4000',
    });
    expect(redirectTarget('cursor://anysphere.cursor-mcp/oauth/callback')).toEqual({
      label: 'cursor://anysphere.cursor-mcp',
      formAction: 'cursor:',
    });
    expect(redirectTarget('com.example.app:/cb')).toEqual({
      label: 'com.example.app:',
      formAction: 'com.example.app:',
    });
  });
});

describe('redirectUriMatches', () => {
  it('is exact, except the port of http on a loopback IP (RFC 8252 §7.3)', () => {
    expect(redirectUriMatches(['cursor://a/cb'], 'cursor://a/cb')).toBe(true);
    expect(redirectUriMatches(['cursor://a/cb'], 'cursor://a/cb/')).toBe(false);
    expect(redirectUriMatches(['cursor://a/cb'], 'CURSOR://a/cb')).toBe(false);
    expect(redirectUriMatches(['http://127.0.0.1:1/cb'], 'http://127.0.0.1:2/cb')).toBe(true);
    expect(redirectUriMatches(['http://localhost:1/cb'], 'http://localhost:2/cb')).toBe(false);
  });
});

describe('isOurResource', () => {
  const origin = 'https://tooldir.example';
  it('accepts /mcp as a URL parser reads it, nothing else', () => {
    for (const same of [
      'https://tooldir.example/mcp',
      'HTTPS://TOOLDIR.EXAMPLE/mcp',
      'https://tooldir.example:443/mcp',
    ])
      expect(isOurResource(same, origin), same).toBe(true);
    for (const other of [
      'https://tooldir.example/mcp/',
      'https://tooldir.example/MCP',
      'https://tooldir.example/mcp#x',
      'https://tooldir.example',
      'http://tooldir.example/mcp',
      'https://other.example/mcp',
      'mcp',
      '',
    ]) {
      expect(isOurResource(other, origin), other).toBe(false);
    }
  });
});
