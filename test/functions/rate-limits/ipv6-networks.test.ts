// Every per-IP limit counts an IPv6 client by its /64 and an IPv4 client by its address (DECISIONS.md "Rate limits"),
// through the public surface: each limited endpoint is driven to its limit from many addresses of one /64 (the client
// address spoofed with cf-connecting-ip, as the Workers runtime reports it); the next request from yet another
// address of that /64 is refused, while one from the neighbouring /64 and IPv4 neighbours still get through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFIX_48_MULTIPLIER, rateLimitPolicies } from '../../../src/rate-limits/policies';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, newEmail } from '../pages/account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A fresh /64 for each test, so no two tests share a bucket: `2001:db8:<n>:<m>`. */
let networks = 0;
const freshNetwork = () => `2001:db8:${(++networks).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
/** The i-th address of a /64, spelled in full so the grouping, not the text, makes two of them equal. */
const hostIn = (network: string, i: number) =>
  `${network}:${[(i * 40503) & 0xffff, i & 0xffff, (i * 7919) & 0xffff, i + 1].map((group) => group.toString(16)).join(':')}`;

/**
 * A query never asked before: a repeated public read is answered from the page cache before the limiter
 * (docs/pages.md "Caching and rate limits"), so each counted request asks something new.
 */
let asked = 0;
const fresh = () => `anything${++asked}`;

const send = (path: string, ip: string, init: RequestInit = {}) =>
  t.app.request(`http://tooldir.test${path}`, {
    ...init,
    headers: { ...Object.fromEntries(new Headers(init.headers)), 'cf-connecting-ip': ip },
  });

/**
 * Spends `limit` requests from `limit` different addresses of one /64, then checks that another address of that
 * /64 is refused while the next /64 is not: `request(ip)` returns the status.
 */
async function expectOneBudgetPerNetwork(
  limit: number,
  request: (ip: string) => Promise<number>,
  allowed: (status: number) => boolean,
) {
  const network = freshNetwork();
  for (let i = 0; i < limit; i++) {
    const status = await request(hostIn(network, i));
    expect(allowed(status), `request ${i + 1} of ${limit} answered ${status}`).toBe(true);
  }
  expect(await request(`${network}:ffff:ffff:ffff:fffe`)).toBe(429);
  expect(await request(`[${network}::1]`)).toBe(429);
  const neighbour = `${network.slice(0, network.lastIndexOf(':'))}:${(parseInt(network.slice(network.lastIndexOf(':') + 1), 16) ^ 1).toString(16)}`;
  expect(allowed(await request(`${neighbour}::1`))).toBe(true);
}

describe('per-IP limits group IPv6 clients by /64', () => {
  it('public reads: GET /api/v1/tools', async () => {
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.public.limit,
      async (ip) => (await send(`/api/v1/tools?q=${fresh()}`, ip)).status,
      (s) => s === 200,
    );
  });

  it("the home page's search: GET /?q=", async () => {
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.public.limit,
      async (ip) => (await send(`/?q=${fresh()}`, ip)).status,
      (s) => s === 200,
    );
  });

  it('sign-in: POST /account/sign-in (code requests), each for another address', async () => {
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.signin.limit,
      async (ip) => (await new PageClient(t, ip).requestCode(newEmail())).res.status,
      (s) => s === 200,
    );
  });

  it('OAuth client registration: POST /oauth/register', async () => {
    const metadata = { client_name: 'Limit Probe', redirect_uris: ['http://127.0.0.1:43210/callback'] };
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.oauthRegister.limit,
      async (ip) =>
        (
          await send('/oauth/register', ip, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(metadata),
          })
        ).status,
      (s) => s === 201,
    );
  });

  it('OAuth tokens: POST /oauth/token (refused grants count too)', async () => {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'nobody',
      code: 'nothing',
      code_verifier: 'x'.repeat(43),
    });
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.oauthToken.limit,
      async (ip) =>
        (
          await send('/oauth/token', ip, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form.toString(),
          })
        ).status,
      (s) => s === 400 || s === 401,
    );
  });

  it('the outbound link: GET /go/{slug}', async () => {
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.outboundLinks.limit,
      async (ip) => (await send('/go/no-such-tool', ip)).status,
      (s) => s === 404,
    );
  });

  it('the badge: GET /badge/{slug}.svg', async () => {
    await expectOneBudgetPerNetwork(
      rateLimitPolicies.badges.limit,
      async (ip) => (await send('/badge/no-such-tool.svg', ip)).status,
      (s) => s === 404,
    );
  });

  it('IPv4 clients keep one budget per address, also when reported IPv4-mapped', async () => {
    const limit = rateLimitPolicies.public.limit;
    for (let i = 0; i < limit; i++) expect((await send(`/api/v1/tools?q=${fresh()}`, '192.0.2.77')).status).toBe(200);
    expect((await send(`/api/v1/tools?q=${fresh()}`, '192.0.2.77')).status).toBe(429);
    // The same address as a dual-stack socket reports it is the same client.
    expect((await send(`/api/v1/tools?q=${fresh()}`, '::ffff:192.0.2.77')).status).toBe(429);
    expect((await send(`/api/v1/tools?q=${fresh()}`, '192.0.2.78')).status).toBe(200);
  });
});

describe(`beside each /64, an IPv6 /48 has ${PREFIX_48_MULTIPLIER} times the budget, shared by all its /64s`, () => {
  it('a tunnel that hops from /64 to /64 is refused once its /48 has spent that, with words that say so', async () => {
    const { limit } = rateLimitPolicies.badges;
    const prefix = `2001:db8:${(0xa000 + ++networks).toString(16)}`;
    // A badge for a name that is no badge (.txt): the limiter runs, then a 404 without any statement. Each /64 stays
    // within its own budget; together they spend the /48's.
    const badge = (ip: string) => Promise.resolve(send('/badge/no-such-tool.txt', ip));
    for (let n = 0; n < PREFIX_48_MULTIPLIER; n++) {
      const network = `${prefix}:${n.toString(16)}`;
      const statuses = await Promise.all(
        Array.from({ length: limit }, (_, i) => badge(hostIn(network, i)).then((r) => r.status)),
      );
      expect(
        statuses.filter((s) => s !== 404),
        network,
      ).toEqual([]);
    }
    const refused = await badge(`${prefix}:ffff::1`); // a /64 never seen before, in the same /48
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      new RegExp(
        `^Too many requests: at most ${limit * PREFIX_48_MULTIPLIER} badge loads per minute per IPv6 /48 network\\.`,
      ),
    );
    // The neighbouring /48 and an IPv4 client are not touched; nor is the /48's budget of another policy.
    const neighbour = `2001:db8:${(0xa000 + ++networks).toString(16)}:1::1`;
    expect((await badge(neighbour)).status).toBe(404);
    expect((await badge('192.0.2.200')).status).toBe(404);
    expect((await send(`/api/v1/tools?q=${fresh()}`, `${prefix}:ffff::1`)).status).toBe(200);
  });
});
