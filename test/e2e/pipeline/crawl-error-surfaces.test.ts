// Crawl errors read back through every submitter surface (REST detail and list, MCP get_site_status, /account,
// mail) name the kind of failure and nothing of the network behind it; the operator API and /admin keep the
// full detail (docs/pipeline.md "Crawl failures"). Each case's secrets are asserted PRESENT in the operator
// detail, so "absent for the submitter" cannot pass by the detail simply lacking them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { runSweep } from '../../../src/jobs/sweep';
import { htmlPage, redirectTo, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { dnsFailure, redirectPage, simulatedNetwork, type SimulatedNetwork } from '../../helpers/simulated-network';
import { ADMIN_TOKEN } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from '../../functions/mcp/mcp-client';
import { PageClient } from '../../functions/pages/account-client';

interface Case {
  label: string;
  url: string;
  code: string;
  message: string;
  /** Text of the operator detail that no submitter may read: addresses, internal names, exception text. */
  secrets: string[];
  siteId?: string;
}

/** What must never reach a submitter, whatever the case: IPv4 addresses and raw exception vocabulary. */
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/;
const EXCEPTION_WORDS = /Error|ECONN|ENOTFOUND|fetch failed|\.internal|resolves to|getaddrinfo/;

const MiB = 1024 * 1024;
let closedApp: PipelineApp; // CRAWL_ALLOW_PRIVATE off, a simulated Internet in memory: no socket at all
let openApp: PipelineApp; // CRAWL_ALLOW_PRIVATE on, loopback fixture only
let closedNet: SimulatedNetwork;
let fixture: FixtureSite;
let closedPort: number;

const closedCases: Case[] = [
  {
    label: 'a name resolving to a private address',
    url: 'http://intranet.tooldir-corp.example/',
    code: 'blocked_address',
    message: 'the address is not public',
    secrets: ['10.20.30.40'],
  },
  {
    label: 'a name resolving to a unique-local IPv6 address',
    url: 'http://v6.tooldir-corp.example/',
    code: 'blocked_address',
    message: 'the address is not public',
    secrets: ['fd12:3456::7'],
  },
  {
    label: 'a redirect to an internal host name',
    url: 'http://redirector.example/',
    code: 'blocked_address',
    message: 'the address is not public',
    secrets: ['grafana.ops.internal', '192.168.77.5'],
  },
  {
    label: 'a DNS failure',
    url: 'http://gone.example/',
    code: 'dns_error',
    message: 'the host name could not be resolved',
    secrets: ['ENOTFOUND', '10.0.0.53', 'ns1.ops.internal'],
  },
  { label: 'a timeout', url: 'http://slow.example/', code: 'timeout', message: 'timed out', secrets: ['1000 ms'] },
];

let openCases: Case[] = [];

beforeAll(async () => {
  closedNet = simulatedNetwork({
    timeoutMs: 1000,
    dns: {
      'intranet.tooldir-corp.example': ['10.20.30.40'],
      'v6.tooldir-corp.example': ['fd12:3456::7'],
      'redirector.example': ['93.184.216.34'],
      'grafana.ops.internal': ['192.168.77.5'],
      'gone.example': dnsFailure('getaddrinfo ENOTFOUND gone.example (resolver 10.0.0.53, ns1.ops.internal)'),
      'slow.example': ['93.184.216.34'],
    },
    pages: {
      'http://redirector.example/': redirectPage('http://grafana.ops.internal/dashboards'),
      'http://slow.example/': 'hang',
    },
  });
  closedApp = await createPipelineApp({
    env: { CRAWL_ALLOW_PRIVATE: 'false', CRAWL_MAX_ATTEMPTS: '1' },
    overrides: { crawl: closedNet },
  });
  openApp = await createPipelineApp({ env: { CRAWL_ALLOW_PRIVATE: 'true', CRAWL_MAX_ATTEMPTS: '1' } });

  fixture = await startFixtureSite({
    '/err500': (_request, response) =>
      void response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>'),
    '/json': (_request, response) =>
      void response.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"x"}'),
    '/big': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }); // chunked, no Content-Length
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (let written = 0; written < 3 * MiB; written += chunk.length) response.write(chunk);
      response.end();
    },
    '/landing': htmlPage('<title>Landed</title>'),
  });
  for (let hop = 1; hop <= 6; hop++) fixture.route(`/hop${hop}`, redirectTo(hop === 6 ? '/landing' : `/hop${hop + 1}`));
  const closed = await startFixtureSite();
  closedPort = closed.port;
  await closed.close();

  // *.localhost names (the harness resolves them to 127.0.0.1): the submitted URL itself names no address.
  const at = (name: string, port: number, path: string) =>
    `http://${name}-${crypto.randomUUID().slice(0, 6)}.localhost:${port}${path}`;
  openCases = [
    {
      label: 'an HTTP 500',
      url: at('err', fixture.port, '/err500'),
      code: 'http_error',
      message: 'the site answered HTTP 500',
      secrets: [],
    },
    {
      label: 'a non-HTML content type',
      url: at('json', fixture.port, '/json'),
      code: 'not_html',
      message: 'not an HTML page',
      secrets: ['application/json'],
    },
    {
      label: 'a too-large body',
      url: at('big', fixture.port, '/big'),
      code: 'too_large',
      message: 'the page is larger than 2 MiB',
      secrets: ['2097152'],
    },
    {
      label: 'too many redirects',
      url: at('hops', fixture.port, '/hop1'),
      code: 'too_many_redirects',
      message: 'more than 5 redirects',
      secrets: ['/hop6'],
    },
    {
      label: 'a refused connection',
      url: at('down', closedPort, '/'),
      code: 'network_error',
      message: 'the site could not be reached',
      secrets: ['ECONNREFUSED', '127.0.0.1'],
    },
  ];
});

afterAll(async () => {
  await closedApp?.close();
  await openApp?.close();
  await fixture?.close();
  expect(closedNet.violations).toEqual([]);
  expect(networkViolations).toEqual([]);
});

describe.each([
  ['CRAWL_ALLOW_PRIVATE off, simulated Internet', () => ({ t: closedApp, cases: closedCases })],
  ['CRAWL_ALLOW_PRIVATE on, loopback fixture', () => ({ t: openApp, cases: openCases })],
] as const)('crawl errors (%s)', (_title, setup) => {
  let t: PipelineApp;
  let cases: Case[];
  let member: Awaited<ReturnType<PipelineApp['member']>>;

  beforeAll(async () => {
    ({ t, cases } = setup());
    member = await t.member('memberFeature');
    for (const [index, c] of cases.entries())
      c.siteId = await t.submit(member.key, {
        name: `Failing Tool ${index} ${crypto.randomUUID().slice(0, 6)}`,
        url: c.url,
      });
    await t.settle();
  });

  const expectNothingOfOurNetwork = (text: string, c?: Case) => {
    expect(text).not.toMatch(IPV4);
    for (const secret of (c ? [c] : cases).flatMap((each) => each.secrets)) expect(text).not.toContain(secret);
  };

  it('the REST detail read and the list carry crawl_error {code, message} (the detail also its history) and nothing else new', async () => {
    const list = await t.request('/api/v1/sites?limit=100', { key: member.key });
    expect(list.status).toBe(200);
    const listed = (await list.json()).sites as Array<{ site_id: string }>;
    for (const c of cases) {
      const res = await t.request(`/api/v1/sites/${c.siteId}`, { key: member.key });
      expect(res.status, c.label).toBe(200);
      const body = await res.json();
      expect(body, c.label).toEqual({
        site_id: c.siteId,
        name: expect.any(String),
        url: c.url,
        status: 'crawl_failed',
        is_feature: false,
        is_sponsor: false,
        submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/),
        crawl_error: { code: c.code, message: c.message },
        // docs/submission-progress.md: the failed attempt's step says why in the same words.
        history: [
          { status: 'queued', at: expect.any(String) },
          { status: 'crawling', at: expect.any(String) },
          { status: 'crawl_failed', at: expect.any(String), reason: c.message },
        ],
      });
      const { history: _history, ...listShape } = body as Record<string, unknown>;
      expect(
        listed.find((site) => site.site_id === c.siteId),
        c.label,
      ).toEqual(listShape);
      const { url: _own, ...rest } = body as Record<string, unknown>;
      const text = JSON.stringify(rest);
      expectNothingOfOurNetwork(text, c);
      expect(text).not.toMatch(EXCEPTION_WORDS);
    }
  });

  it('MCP get_site_status returns the same body, structured and as text', async () => {
    const client = await connectMcp(t, { key: member.key });
    try {
      for (const c of cases) {
        const rest = await (await t.request(`/api/v1/sites/${c.siteId}`, { key: member.key })).json();
        const result = await callTool(client, 'get_site_status', { site_id: c.siteId });
        expect(result.isError, c.label).toBeFalsy();
        expect(result.structuredContent, c.label).toEqual(rest);
        expect(resultJson(result), c.label).toEqual(rest);
        const { url: _own, ...others } = result.structuredContent as Record<string, unknown>;
        expectNothingOfOurNetwork(JSON.stringify(others), c);
        expect(JSON.stringify(others)).not.toMatch(EXCEPTION_WORDS);
      }
    } finally {
      await client.close();
    }
  });

  it('/account shows the kind in words', async () => {
    const browser = new PageClient(t);
    await browser.signIn(member.email);
    const { res, html } = await browser.page('/account');
    expect(res.status).toBe(200);
    for (const c of cases) expect(html, c.label).toContain(c.message);
    expectNothingOfOurNetwork(html);
    expect(html).not.toMatch(/ECONN|ENOTFOUND|fetch failed|\.internal|resolves to/);
  });

  it('site_history notes (to be shown to submitters) and mail carry the kind only', async () => {
    for (const c of cases) {
      const notes = (await t.history(c.siteId!)).map((h) => h.note ?? '');
      expect(notes.at(-1), c.label).toBe(`attempt 1 of 1 failed: ${c.message}`);
      for (const note of notes) expectNothingOfOurNetwork(note, c);
    }
    const mails = await queryRows<{ subject: string; text: string }>(
      t.deps.db,
      sql`SELECT subject, text FROM mail_outbox`,
    );
    for (const mail of mails) expectNothingOfOurNetwork(`${mail.subject}\n${mail.text}`);
  });

  it('the operator API keeps the kind and the full detail', async () => {
    for (const c of cases) {
      const res = await t.request(`/api/v1/admin/sites/${c.siteId}`, { key: ADMIN_TOKEN });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.site.crawl_error, c.label).toEqual({ code: c.code, message: c.message });
      expect(body.pipeline, c.label).toMatchObject({ crawl_attempts: 1, crawl_error_kind: c.code });
      for (const secret of c.secrets) expect(body.pipeline.crawl_error, c.label).toContain(secret);
    }
    const http500 = cases.find((c) => c.code === 'http_error');
    if (http500) {
      const body = await (await t.request(`/api/v1/admin/sites/${http500.siteId}`, { key: ADMIN_TOKEN })).json();
      expect(body.pipeline.crawl_error_http_status).toBe(500);
    }
  });

  it('/admin lists each failure with what the submitter is told and the detail', async () => {
    const login = await t.request('/admin/login', {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const html = await (await t.request('/admin', { headers: { cookie } })).text();
    expect(html).toContain('Recent crawl failures');
    for (const c of cases) {
      const details = (
        await queryRows<{ crawl_error: string }>(
          t.deps.db,
          sql`SELECT crawl_error FROM sites WHERE id = ${c.siteId}::uuid`,
        )
      )[0]!;
      const escaped = details.crawl_error
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;');
      expect(html, c.label).toContain(escaped);
      expect(html, c.label).toContain(`${c.message} (${c.code})`);
    }
  });
});

describe('a crawl the sweep finds stuck in crawling on its last attempt', () => {
  it('reads as did_not_finish, or keeps the kind an earlier attempt stored', async () => {
    const t = closedApp;
    const member = await t.member('member');
    const fresh = await t.submit(member.key, {
      name: `Stuck Fresh ${crypto.randomUUID().slice(0, 6)}`,
      url: 'http://intranet.tooldir-corp.example/fresh',
    });
    const earlier = await t.submit(member.key, {
      name: `Stuck Earlier ${crypto.randomUUID().slice(0, 6)}`,
      url: 'http://gone.example/earlier',
    });
    await t.settle();
    // As if the last attempt's worker died: one with no failure stored yet, one with an earlier attempt's failure.
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'crawling', crawl_error = NULL, crawl_error_kind = NULL WHERE id = ${fresh}::uuid`,
    );
    await queryRows(t.deps.db, sql`UPDATE sites SET status = 'crawling' WHERE id = ${earlier}::uuid`);
    expect((await runSweep(t.deps, { crawlingForMs: 0, queuedForMs: 3_600_000 })).recovered).toBeGreaterThanOrEqual(2);

    const read = async (id: string) => (await t.request(`/api/v1/sites/${id}`, { key: member.key })).json();
    expect(await read(fresh)).toMatchObject({
      status: 'crawl_failed',
      crawl_error: { code: 'did_not_finish', message: 'the crawl did not finish' },
    });
    expect(await read(earlier)).toMatchObject({
      status: 'crawl_failed',
      crawl_error: { code: 'dns_error', message: 'the host name could not be resolved' },
    });
    expect((await t.history(fresh)).at(-1)?.note).toBe('sweep: crawl attempt 1 did not finish');
  });
});
