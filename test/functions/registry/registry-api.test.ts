// The registry-compatible read API (issue 33 point 3, docs/registry-api.md): every answer validates against the
// official MCP Registry's server.schema.json (vendored in test/fixtures/mcp-registry/), pages see each entry once,
// updated_since filters and reports removals, names with a slash work URL-encoded, bad query values are 400s.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools, type SeededTool } from '../../helpers/live-tools';
import { giveMcpServer } from '../../helpers/mcp-listings';
import { queryRows } from '../../../src/db/client';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/mcp-registry/${name}`, import.meta.url), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(fixture('server.schema.json'));
ajv.addSchema(fixture('server-response.schema.json'));
const RESPONSE = 'https://tooldir.test/fixtures/mcp-registry/server-response.schema.json';
const validList = ajv.getSchema(`${RESPONSE}#/definitions/ServerList`)!;
const validEntry = ajv.getSchema(`${RESPONSE}#/definitions/ServerResponse`)!;

function expectValid(kind: 'list' | 'entry', body: unknown) {
  const validate = kind === 'list' ? validList : validEntry;
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

let t: TestApp;
let ipCounter = 0;
const get = async (path: string) => {
  const res = await t.request(path, { headers: { 'cf-connecting-ip': `198.18.0.${++ipCounter % 250}` } });
  return { status: res.status, body: await res.json(), headers: res.headers };
};

type Entry = {
  server: { name: string; title?: string; version: string; remotes: unknown };
  _meta: Record<string, any>;
};
const official = (e: Entry) => e._meta['io.modelcontextprotocol.registry/official'];

/** Reads every page of `path` with `limit`, returning the entries in order. */
async function readAll(path: string, limit: number): Promise<Entry[]> {
  const seen: Entry[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const { status, body } = await get(
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(status).toBe(200);
    expectValid('list', body);
    expect(body.metadata.count).toBe(body.servers.length);
    seen.push(...body.servers);
    cursor = body.metadata.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('paging did not end');
}

let tools: SeededTool[];
beforeAll(async () => {
  t = await createTestApp();
  tools = await seedTools(t.deps.db, [
    { name: 'Registry One', description: 'A long description. '.repeat(20) },
    { name: 'Registry Two' },
    { name: 'Registry Three' },
    { name: 'Registry Four' },
    { name: 'Registry Five' },
    { name: 'Registry None' },
  ]);
  const [one, two, three, four, five] = tools;
  await giveMcpServer(t.deps.db, one!.id, 'https://one.example/mcp', {
    serverVersion: '1.4.2',
    tools: [{ name: 'create_issue' }, { name: 'close_issue' }],
  });
  await giveMcpServer(t.deps.db, two!.id, 'https://two.example/sse', { transport: 'sse', serverVersion: '^1.0' });
  await giveMcpServer(t.deps.db, three!.id, 'https://three.example/mcp', null);
  await giveMcpServer(t.deps.db, four!.id, 'https://four.example/mcp', {
    status: 'auth_required',
    serverVersion: '2.0.0-beta.1',
  });
  await giveMcpServer(t.deps.db, five!.id, 'https://five.example/mcp', { status: 'unreachable' });
});
afterAll(() => t.close());

/** Moves the change feed's entries of these listings into the past, as if their last public change was at `at`. */
async function ageChangeFeed(siteIds: string[], at: Date): Promise<void> {
  for (const id of siteIds)
    await queryRows(
      t.deps.db,
      sql`UPDATE listing_changes SET changed_at = ${at.toISOString()}::timestamptz WHERE site_id = ${id}::uuid`,
    );
}

describe('the vendored schema', () => {
  it('rejects what the official registry rejects (so a pass means something)', async () => {
    const { body } = await get(`/v0.1/servers/${encodeURIComponent(`test.tooldir/${tools[0]!.slug}`)}/versions/latest`);
    expectValid('entry', body);
    const broken = (change: (e: any) => void) => {
      const copy = structuredClone(body);
      change(copy);
      return validEntry(copy);
    };
    expect(broken((e) => (e.server.name = 'no-slash'))).toBe(false);
    expect(broken((e) => (e.server.description = 'x'.repeat(101)))).toBe(false);
    expect(broken((e) => (e.server.remotes[0].type = 'streamable'))).toBe(false);
    expect(broken((e) => (e._meta['io.modelcontextprotocol.registry/official'].extra = 1))).toBe(false);
    expect(broken((e) => delete e.server.version)).toBe(false);
  });
});

describe('GET /v0.1/servers', () => {
  it('lists each live listing with an MCP server once, over pages of any size, valid against the schema', async () => {
    const all = await readAll('/v0.1/servers', 2);
    const names = all.map((e) => e.server.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(
      tools
        .slice(0, 5)
        .map((tool) => `test.tooldir/${tool.slug}`)
        .sort(),
    );
    for (const e of all) {
      expectValid('entry', e);
      expect(official(e)).toMatchObject({ status: 'active', isLatest: true });
    }
    expect((await readAll('/v0.1/servers', 100)).length).toBe(5);
  });

  it('carries the server version when usable, the transport, and our listing under our own key', async () => {
    const all = await readAll('/v0.1/servers', 100);
    const by = (slug: string) => all.find((e) => e.server.name.endsWith(`/${slug}`))!;
    const one = by(tools[0]!.slug);
    expect(one.server.version).toBe('1.4.2');
    expect(one.server.remotes).toEqual([{ type: 'streamable-http', url: 'https://one.example/mcp' }]);
    expect((one.server as unknown as { description: string }).description.length).toBeLessThanOrEqual(100);
    expect(one._meta['test.tooldir']).toMatchObject({
      slug: tools[0]!.slug,
      page_url: `http://tooldir.test/tools/${tools[0]!.slug}`,
      mcp_status: 'reachable',
      tools_count: 2,
      categories: [],
    });
    // A range is no version: the stable fallback. SSE stays SSE.
    expect(by(tools[1]!.slug).server).toMatchObject({
      version: '0.0.0',
      remotes: [{ type: 'sse', url: 'https://two.example/sse' }],
    });
    expect(by(tools[2]!.slug)._meta['test.tooldir']).toMatchObject({ mcp_status: 'unchecked', tools_count: 0 });
    expect(by(tools[3]!.slug).server.version).toBe('2.0.0-beta.1');
  });

  it('names a listing after its owner’s verified domain', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Registry Verified' }]);
    const host = new URL(tool!.url).hostname;
    await queryRows(
      t.deps.db,
      sql`INSERT INTO domain_proofs (id, account_id, domain, token, status, method, verified_at, checked_at)
        SELECT ${crypto.randomUUID()}::uuid, account_id, ${host}, 'td_x', 'verified', 'dns', now(), now() FROM sites WHERE id = ${tool!.id}::uuid`,
    );
    await giveMcpServer(t.deps.db, tool!.id, 'https://verified.example/mcp');
    const name = `${host.split('.').reverse().join('.')}/${tool!.slug}`;
    const { status, body } = await get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    expect(status).toBe(200);
    expectValid('entry', body);
    expect(body.server.name).toBe(name);
    // Under our namespace it is not found: one name per entry.
    expect(
      (await get(`/v0.1/servers/${encodeURIComponent(`test.tooldir/${tool!.slug}`)}/versions/latest`)).status,
    ).toBe(404);
    const found = await get(`/v0.1/servers?search=${encodeURIComponent(host.split('.').reverse().join('.'))}`);
    expect(found.body.servers.map((e: Entry) => e.server.name)).toEqual([name]);
  });

  it('filters by updated_since and then reports withdrawn, hidden and removed servers as deleted', async () => {
    const [a, b, c, d] = await seedTools(t.deps.db, [
      { name: 'Since A' },
      { name: 'Since B' },
      { name: 'Since C' },
      { name: 'Since D' },
    ]);
    const old = new Date('2026-01-01T00:00:00Z');
    for (const tool of [a, b, c, d])
      await giveMcpServer(t.deps.db, tool!.id, `https://${tool!.slug}.example/mcp`, { changedAt: old });
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET published_at = ${old.toISOString()}::timestamptz, status_changed_at = ${old.toISOString()}::timestamptz WHERE id IN (${a!.id}::uuid, ${b!.id}::uuid, ${c!.id}::uuid, ${d!.id}::uuid)`,
    );
    await ageChangeFeed([a!.id, b!.id, c!.id, d!.id], old);
    const since = new Date(Date.now() - 1000).toISOString();
    const mine = (list: Entry[]) => list.filter((e) => [a, b, c, d].some((x) => e.server.name.endsWith(`/${x!.slug}`)));
    expect(mine(await readAll(`/v0.1/servers?updated_since=${since}`, 2))).toEqual([]);
    // b withdrawn, c hidden by the re-check, d no longer names a server; a gets a new tool list.
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'withdrawn', withdrawn_at = now(), status_changed_at = now() WHERE id = ${b!.id}::uuid`,
    );
    await queryRows(t.deps.db, sql`UPDATE sites SET health_hidden = true WHERE id = ${c!.id}::uuid`);
    await queryRows(t.deps.db, sql`UPDATE site_health SET hidden_at = now() WHERE site_id = ${c!.id}::uuid`);
    await queryRows(t.deps.db, sql`UPDATE sites SET mcp_url = NULL WHERE id = ${d!.id}::uuid`);
    await queryRows(
      t.deps.db,
      sql`UPDATE site_mcp SET changed_at = now() WHERE site_id IN (${a!.id}::uuid, ${d!.id}::uuid)`,
    );
    const changed = mine(await readAll(`/v0.1/servers?updated_since=${since}`, 2));
    const status = Object.fromEntries(changed.map((e) => [e.server.name.split('/')[1], official(e).status]));
    expect(status).toEqual({ [a!.slug]: 'active', [b!.slug]: 'deleted', [c!.slug]: 'deleted', [d!.slug]: 'deleted' });
    // Without updated_since deleted entries show only when asked.
    const plain = mine(await readAll('/v0.1/servers', 50)).map((e) => e.server.name);
    expect(plain).toEqual([`test.tooldir/${a!.slug}`]);
    expect(mine(await readAll('/v0.1/servers?include_deleted=true', 50))).toHaveLength(4);
    // A deleted entry by name: 404, unless include_deleted.
    const bName = encodeURIComponent(`test.tooldir/${b!.slug}`);
    expect((await get(`/v0.1/servers/${bName}/versions`)).status).toBe(404);
    const deleted = await get(`/v0.1/servers/${bName}/versions?include_deleted=true`);
    expect(deleted.status).toBe(200);
    expectValid('list', deleted.body);
    expect(official(deleted.body.servers[0]).status).toBe('deleted');
  });

  it('moves updatedAt for every public change the change feed records: an approved edit of the name', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Edited Later' }]);
    const old = new Date('2026-01-01T00:00:00Z');
    await giveMcpServer(t.deps.db, tool!.id, `https://${tool!.slug}.example/mcp`, { changedAt: old });
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET published_at = ${old.toISOString()}::timestamptz, status_changed_at = ${old.toISOString()}::timestamptz WHERE id = ${tool!.id}::uuid`,
    );
    await ageChangeFeed([tool!.id], old);
    const since = new Date(Date.now() - 1000).toISOString();
    const mine = (list: Entry[]) => list.filter((e) => e.server.name.endsWith(`/${tool!.slug}`));
    expect(mine(await readAll(`/v0.1/servers?updated_since=${since}`, 50))).toEqual([]);
    // What an approved edit writes (src/pipeline/ applies it as one UPDATE of the listing's public fields).
    await queryRows(t.deps.db, sql`UPDATE sites SET name = 'Edited Later, renamed' WHERE id = ${tool!.id}::uuid`);
    const changed = mine(await readAll(`/v0.1/servers?updated_since=${since}`, 50));
    expect(changed.map((e) => [e.server.title, official(e).status])).toEqual([['Edited Later, renamed', 'active']]);
    expect(Date.parse(official(changed[0]!).updatedAt)).toBeGreaterThan(Date.parse(since));
  });

  it('answers bad query values with 400 in the error shape', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=ten',
      'updated_since=yesterday',
      'updated_since=2026-13-45T99:00:00Z',
      'updated_since=2026-11-21',
      'cursor=nonsense',
      'cursor=r1.bm90LWEtdXVpZA',
      'include_deleted=maybe',
      'search=%00',
    ]) {
      const { status, body } = await get(`/v0.1/servers?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code, query).toBe('invalid_request');
      expect(typeof body.error.message).toBe('string');
    }
  });

  it('is cacheable', async () => {
    const { headers } = await get('/v0.1/servers?limit=1');
    expect(headers.get('cache-control')).toMatch(/public/);
    expect(headers.get('etag')).toBeTruthy();
  });
});

describe('GET /v0.1/servers/{name}/versions[/{version}]', () => {
  it('finds a server by its URL-encoded name, at its version or latest, and nothing else', async () => {
    const name = `test.tooldir/${tools[0]!.slug}`;
    const encoded = encodeURIComponent(name);
    const versions = await get(`/v0.1/servers/${encoded}/versions`);
    expect(versions.status).toBe(200);
    expectValid('list', versions.body);
    expect(versions.body.servers.map((e: Entry) => e.server.version)).toEqual(['1.4.2']);
    for (const v of ['latest', '1.4.2']) {
      const one = await get(`/v0.1/servers/${encoded}/versions/${v}`);
      expect(one.status, v).toBe(200);
      expectValid('entry', one.body);
      expect(one.body.server.name).toBe(name);
    }
    expect((await get(`/v0.1/servers/${encoded}/versions/9.9.9`)).status).toBe(404);
    expect((await get(`/v0.1/servers/${encodeURIComponent(`test.tooldir/${tools[5]!.slug}`)}/versions`)).status).toBe(
      404,
    );
    expect((await get(`/v0.1/servers/${encodeURIComponent('test.tooldir/no-such-thing')}/versions`)).status).toBe(404);
    const odd = await get(`/v0.1/servers/${encodeURIComponent("x/'; DROP TABLE sites; --")}/versions/latest`);
    expect(odd.status).toBe(404);
    expect(odd.body.error.code).toBe('not_found');
  });
});
