// Property-based fuzzing of the OAuth endpoints and the bearer check of POST /mcp: whatever a client sends,
// never a 5xx, and the OAuth endpoints always answer an RFC 6749 error body when they refuse.
// The crawler's network is simulated (no socket): a generated https client_id can only reach a resolver that refuses.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../../src/adapters/ratelimit/types';
import { anyField, urlish } from '../fuzz/fuzz-app';
import {
  ORIGIN,
  REDIRECT,
  RESOURCE,
  createOAuthTestApp,
  newClient,
  pkcePair,
  type OAuthTestApp,
} from './oauth-harness';
import { propertyRuns } from '../../helpers/property-runs';

const RUNS = propertyRuns(300);
const unlimited: RateLimiter = {
  async limit({ limit }) {
    return { success: true, limit, remaining: limit, reset: Date.now() + 60_000 };
  },
};

/** The OAuth wire format is RFC 6749's, not the REST error body: only the status is checked here. */
async function expectNoServerError(res: Response, what: string): Promise<void> {
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
}

let t: OAuthTestApp;
let clientId: string;
beforeAll(async () => {
  t = await createOAuthTestApp({ overrides: { limiter: unlimited } });
  clientId = await newClient(t);
});
afterAll(async () => {
  expect(t.network.fetched).toEqual([]); // nothing generated ever got past the address check
  await t.close();
});

const paramValue = fc.oneof(
  fc.string(),
  fc.constantFrom('authorization_code', 'refresh_token', 'S256', 'code', REDIRECT, RESOURCE),
  urlish,
  anyField.map((v) => JSON.stringify(v) ?? ''),
);
const formOf = (names: string[]) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), paramValue, { maxKeys: 8 });

describe('OAuth endpoints under generated input', () => {
  it(`POST /oauth/token: ${RUNS} generated forms`, async () => {
    const names = [
      'grant_type',
      'client_id',
      'code',
      'redirect_uri',
      'code_verifier',
      'resource',
      'refresh_token',
      'scope',
      'client_secret',
    ];
    await fc.assert(
      fc.asyncProperty(formOf(names), fc.boolean(), async (fields, withClient) => {
        const form = new URLSearchParams(fields);
        if (withClient) form.set('client_id', clientId);
        const res = await t.app.request(`${ORIGIN}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        });
        await expectNoServerError(res, form.toString().slice(0, 300));
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(typeof ((await res.json()) as { error?: unknown }).error).toBe('string');
      }),
      { numRuns: RUNS },
    );
  });

  it(`POST /oauth/register: ${RUNS} generated bodies`, async () => {
    const metadata = fc.record(
      {
        redirect_uris: fc.oneof(fc.array(fc.oneof(urlish, anyField), { maxLength: 3 }), anyField),
        client_name: anyField,
        grant_types: anyField,
        scope: anyField,
        token_endpoint_auth_method: anyField,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          metadata.map((m) => JSON.stringify(m)),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string(),
        ),
        async (body) => {
          const res = await t.app.request(`${ORIGIN}/oauth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await expectNoServerError(res, body.slice(0, 300));
          const answer = (await res.json()) as { error?: unknown; client_id?: unknown };
          if (res.status === 201) expect(answer.client_id).toMatch(/^tdcl_/);
          else expect(['invalid_client_metadata', 'invalid_redirect_uri']).toContain(answer.error);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it(`GET /oauth/authorize: ${RUNS} generated queries never redirect anywhere but our consent page`, async () => {
    const names = [
      'response_type',
      'client_id',
      'redirect_uri',
      'state',
      'scope',
      'code_challenge',
      'code_challenge_method',
      'resource',
    ];
    const { challenge } = pkcePair();
    await fc.assert(
      fc.asyncProperty(formOf(names), fc.boolean(), async (fields, valid) => {
        const query = new URLSearchParams(
          valid ? { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, ...fields } : fields,
        );
        const res = await t.app.request(`${ORIGIN}/oauth/authorize?${query}`);
        await expectNoServerError(res, query.toString().slice(0, 300));
        // Before the person decides nothing goes to the client, registered URI or not (RFC 9700 §4.11).
        const location = res.headers.get('location');
        if (location !== null) expect(location.startsWith('/account/authorize?')).toBe(true);
        else expect(res.status).toBe(400);
      }),
      { numRuns: RUNS },
    );
  });

  it(`POST /mcp: ${RUNS} generated Authorization headers are 401, never 5xx`, async () => {
    const header = fc.oneof(
      fc.string().map((s) => `Bearer ${s}`),
      fc.stringMatching(/^tdat_[0-9A-Za-z]{32}$/).map((s) => `Bearer ${s}`),
      fc.stringMatching(/^tdk_[0-9A-Za-z]{22}$/).map((s) => `Bearer ${s}`),
      fc.string({ unit: 'binary-ascii' }),
    );
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        let headers: Headers;
        try {
          headers = new Headers({
            authorization,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          });
        } catch {
          return; // not a header value a client can send
        }
        const res = await t.app.request(`${ORIGIN}/mcp`, {
          method: 'POST',
          headers,
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        });
        await expectNoServerError(res, authorization.slice(0, 200));
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
      }),
      { numRuns: RUNS },
    );
  });
});
