// Hostile inputs to the OAuth endpoints (issue 27): redirect URIs on schemes that are no app's own, refusal pages
// that would repeat a stranger's text, and metadata documents whose failures would tell which internal names
// exist. The crawler's network is simulated: it opens no socket, and any lookup or fetch of a host the tables do
// not name fails the test (checked after every test), so a broken guard cannot reach a real address.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createLogger } from '../../../src/log';
import { UNREACHABLE_DOCUMENT } from '../../../src/oauth/client-metadata-document';
import { dnsFailure, redirectPage } from '../../helpers/simulated-network';
import { uniqueIp } from '../pages/account-client';
import {
  REDIRECT,
  authorizeQuery,
  createOAuthTestApp,
  newClient,
  pkcePair,
  registerClient,
  type OAuthTestApp,
} from './oauth-harness';

const logLines: string[] = [];
const docFor =
  (host: string, redirect = REDIRECT) =>
  () =>
    Response.json({ client_id: `https://${host}/client.json`, client_name: 'Doc', redirect_uris: [redirect] });

let t: OAuthTestApp;
beforeAll(async () => {
  t = await createOAuthTestApp({
    timeoutMs: 300, // the metadata fetch takes the shorter of its own 5 s and the transport's deadline
    dns: {
      'nxdomain.example': dnsFailure('getaddrinfo ENOTFOUND nxdomain.example'),
      'servfail.example': dnsFailure('queryA ESERVFAIL servfail.example', 'ESERVFAIL'),
      'intranet.example': ['10.20.30.40'],
      'metadata.example': ['169.254.169.254'],
      'loopback.example': ['127.0.0.1'],
      'rebind.example': ['93.184.215.30', '192.168.1.1'],
      'refused.example': ['93.184.215.31'],
      'hangs.example': ['93.184.215.32'],
      'missing.example': ['93.184.215.33'],
      'broken.example': ['93.184.215.34'],
      'moved.example': ['93.184.215.35'],
      'msdt.example': ['93.184.215.36'],
    },
    pages: {
      'https://refused.example/client.json': () => {
        throw Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        });
      },
      'https://hangs.example/client.json': 'hang',
      'https://missing.example/client.json': () => new Response('no', { status: 404 }),
      'https://broken.example/client.json': () => new Response('oops', { status: 502 }),
      'https://moved.example/client.json': redirectPage('https://moved.example/elsewhere.json'),
      'https://msdt.example/client.json': docFor('msdt.example', 'ms-msdt:/id PCWDiagnostic'),
    },
    overrides: { log: createLogger('debug', (line) => logLines.push(line)) },
  });
});
afterEach(() => expect(t.network.violations).toEqual([]));
afterAll(() => t.close());

const storedClients = async (like: string) =>
  queryRows<{ id: string }>(
    t.deps.db,
    sql`SELECT id FROM oauth_clients WHERE id LIKE ${like} OR redirect_uris::text LIKE ${like}`,
  );

/** GET /oauth/authorize from a fresh client IP; the refusal page's message and code. */
async function refusal(query: URLSearchParams) {
  const res = await t.app.request(`http://tooldir.test/oauth/authorize?${query}`, {
    headers: { 'cf-connecting-ip': uniqueIp() },
  });
  const html = await res.text();
  expect(res.status, html).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  return {
    html,
    message: /<p class="error" role="alert" id="oauth-error">([^<]*)<\/p>/.exec(html)?.[1],
    code: /<code id="oauth-error-code">([^<]*)<\/code>/.exec(html)?.[1],
  };
}

describe("redirect URIs on an app's own scheme", () => {
  it("registration refuses schemes that are no app's own with invalid_redirect_uri, and stores nothing", async () => {
    const refused = [
      'ms-msdt:/id',
      'search-ms:query=invoice&crumb=location:evil.example',
      'intent://scan/',
      'jar:https://app.example/a.jar!/cb',
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop/cb',
      'javascript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'myapp://callback',
      'x-apple.systempreferences:com.apple.preference',
    ];
    for (const uri of refused) {
      const { res, body } = await registerClient(t, {
        client_name: 'Hostile',
        redirect_uris: ['https://fine.example/cb', uri],
      });
      expect(res.status, uri).toBe(400);
      expect(body.error, uri).toBe('invalid_redirect_uri');
      expect(body.error_description, uri).toMatch(/^Refused redirect URI ".+": it(s)? (uses the )?scheme /);
      expect(await storedClients(`%${uri.slice(0, 10)}%`), uri).toEqual([]);
    }
  });

  it("says what is accepted instead: a reverse domain name or an editor's scheme", async () => {
    const { body } = await registerClient(t, { redirect_uris: ['ms-msdt:/id'] });
    expect(body.error_description).toBe(
      'Refused redirect URI "ms-msdt:/id": its scheme ms-msdt: is neither https, http on loopback, a reverse domain name that the ' +
        "app's maker controls (RFC 8252 §7.1, such as com.example.app:/callback) nor one of the editors' schemes (cursor, vscode, vscode-insiders, windsurf).",
    );
  });

  it("accepts reverse-domain schemes and the editors' schemes that MCP hosts register", async () => {
    for (const uri of [
      'cursor://anysphere.cursor-mcp/oauth/callback',
      'vscode://saoudrizwan.claude-dev/callback',
      'vscode-insiders://saoudrizwan.claude-dev/callback',
      'windsurf://saoudrizwan.claude-dev/callback',
      'com.example.app:/oauth2redirect',
    ]) {
      const { res, body } = await registerClient(t, { redirect_uris: [uri] });
      expect(res.status, uri).toBe(201);
      expect(body.redirect_uris).toEqual([uri]);
    }
  });

  it('a client registered under older rules with such a scheme is refused at /oauth/authorize, before any consent', async () => {
    const id = `tdcl_${'O'.repeat(22)}`;
    await queryRows(
      t.deps.db,
      sql`INSERT INTO oauth_clients (id, kind, name, redirect_uris) VALUES (${id}, 'registered', 'Old', ${JSON.stringify(['search-ms:query=x'])}::jsonb)`,
    );
    const page = await refusal(authorizeQuery(id, pkcePair().challenge, { redirect_uri: 'search-ms:query=x' }));
    expect(page.code).toBe('invalid_request');
    expect(page.message).toBe('redirect_uri is one this server no longer accepts; the app must register again.');
  });

  it('a metadata document naming such a scheme is refused on the page without repeating the URI, and is not cached', async () => {
    const page = await refusal(
      authorizeQuery('https://msdt.example/client.json', pkcePair().challenge, {
        redirect_uri: 'ms-msdt:/id PCWDiagnostic',
      }),
    );
    expect(page.code).toBe('invalid_client');
    expect(page.message).toMatch(
      /^The app&#39;s client_id document at msdt\.example cannot be used: Refused redirect URI: it contains spaces or control characters\.$/,
    );
    expect(page.html).not.toContain('PCWDiagnostic');
    expect(await storedClients('https://msdt.example/%')).toEqual([]);
  });
});

describe('refusal pages repeat only a little of what was sent', () => {
  it('an unknown scope list shows at most three words, each cut short, and describes words no scope can be', async () => {
    const clientId = await newClient(t);
    const long = (n: number) => `word${n}-${'x'.repeat(500)}`;
    const scope = [
      'tools:read',
      long(1),
      long(1),
      '<script>alert(1)</script>',
      long(2),
      long(3),
      long(4),
      'call-+1-555-0100',
    ].join(' ');
    const page = await refusal(authorizeQuery(clientId, pkcePair().challenge, { scope }));
    expect(page.code).toBe('invalid_scope');
    expect(page.message).toBe(
      `Unknown scope: word1-${'x'.repeat(24)}…, &lt;script&gt;alert(1)&lt;/script&gt;, word2-${'x'.repeat(24)}… and 3 more. The scopes are tools:read, sites:read, sites:submit.`,
    );
    expect(page.html).not.toContain('x'.repeat(25));
    expect(page.html).not.toContain('555-0100');
  });

  it('a scope word with characters no scope has (quotes, backslashes, bidi overrides) is described, not shown', async () => {
    const clientId = await newClient(t);
    const page = await refusal(
      authorizeQuery(clientId, pkcePair().challenge, { scope: 'evil\u202Egnp.exe "quoted" back\\slash' }),
    );
    expect(page.message).toBe(
      'Unknown scope: a word with characters a scope cannot have, a word with characters a scope cannot have, a word with characters a scope cannot have. The scopes are tools:read, sites:read, sites:submit.',
    );
    expect(page.html).not.toContain('\u202E');
  });

  it('a metadata document client_id is named by its host only, never by the path someone wrote', async () => {
    const path = `/Your-account-is-locked.Call-support-at-+1-555-0100-${'x'.repeat(300)}.json`;
    const page = await refusal(authorizeQuery(`https://nxdomain.example${path}`, pkcePair().challenge));
    expect(page.message).toBe(
      `The app&#39;s client_id document at nxdomain.example cannot be used: ${UNREACHABLE_DOCUMENT}.`,
    );
    expect(page.html).not.toContain('555-0100');
    expect(page.html).not.toContain('Your-account');
  });
});

describe('a metadata document that cannot be fetched', () => {
  it('gets one message whatever the cause, keeps the cause in the log, and stores nothing', async () => {
    const causes = [
      'nxdomain',
      'servfail',
      'intranet',
      'metadata',
      'loopback',
      'rebind',
      'refused',
      'hangs',
      'missing',
      'broken',
      'moved',
    ];
    const messages = new Set<string>();
    for (const host of causes) {
      logLines.length = 0;
      const page = await refusal(authorizeQuery(`https://${host}.example/client.json`, pkcePair().challenge));
      expect(page.code, host).toBe('invalid_client');
      messages.add(page.message!.replace(`${host}.example`, 'HOST'));
      // The operator still learns why: the reason is logged (and only there).
      expect(
        logLines.some((line) => line.includes('client metadata document refused') && line.includes(`${host}.example`)),
        host,
      ).toBe(true);
      expect(await storedClients(`https://${host}.example/%`), host).toEqual([]);
    }
    expect([...messages]).toEqual([
      `The app&#39;s client_id document at HOST cannot be used: ${UNREACHABLE_DOCUMENT}.`,
    ]);
    // Only the names that resolved to public addresses were ever fetched; private, loopback and link-local ones were not.
    const fetchedHosts = new Set(t.network.fetched.map((url) => new URL(url).hostname));
    for (const host of ['intranet', 'metadata', 'loopback', 'rebind', 'nxdomain', 'servfail'])
      expect(fetchedHosts.has(`${host}.example`), host).toBe(false);
  });

  it('gets the same message for an IP-literal client_id on a private, loopback or link-local address', async () => {
    for (const literal of [
      'https://10.0.0.1/client.json',
      'https://127.0.0.1/client.json',
      'https://[::1]/client.json',
      'https://169.254.169.254/latest.json',
    ]) {
      const page = await refusal(authorizeQuery(literal, pkcePair().challenge));
      expect(page.message, literal).toBe(
        `The app&#39;s client_id document at ${new URL(literal).host} cannot be used: ${UNREACHABLE_DOCUMENT}.`,
      );
    }
    expect(t.network.fetched.filter((url) => /\/\/(10\.|127\.|\[::1\]|169\.254)/.test(url))).toEqual([]);
  });
});
