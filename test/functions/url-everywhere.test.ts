// URLs read the same everywhere (issue 31 point 5): REST, MCP, the web form and the CLI accept and refuse the same
// addresses with the same sentence (the rule's words; the API and MCP put `url: ` before them); a bare host gets
// https:// and every surface says so; a duplicate's 409 names the listing's page as the form does; `tooldir stats`
// takes a URL as `tooldir status` does. The CLI runs in-process against this same app (a bridge, loopback only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../helpers/test-app';
import { runCli } from '../../src/cli/program';
import { recordingQueue } from '../helpers/stripe/payments-fixture';
import { seedOwnedTool } from '../helpers/owned-tools';
import { fakeWorld } from '../unit/cli/fake-context';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { canonicalUrl } from '../../src/submissions/url';
import { callTool, connectMcp, resultJson } from './mcp/mcp-client';
import { PageClient, csrfOf, newEmail, uniqueIp } from './pages/account/account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { queue: recordingQueue() } });
});
afterAll(() => t.close());

const NOT_AN_ADDRESS = "Enter the website's address, such as https://acme.com";
const host = () => `same-${crypto.randomUUID().slice(0, 8)}.example`;

/** The CLI against this app: the fake context's loopback fetch, answered by app.request. */
async function cli(key: string, args: string[]) {
  const world = await fakeWorld(
    async (r) => {
      const res = await t.request(`${r.path}${r.search.size ? `?${r.search}` : ''}`, {
        method: r.method,
        key,
        ...(r.body === undefined ? {} : { json: r.body }),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? JSON.parse(text) : undefined,
        headers: Object.fromEntries(res.headers),
      };
    },
    { env: { TOOLDIR_API_KEY: key } },
  );
  const code = await runCli(args, world.ctx);
  return { code, stdout: world.stdout.text, stderr: world.stderr.text, requests: world.requests };
}

async function signedInForm() {
  const client = new PageClient(t, uniqueIp());
  await client.signIn(newEmail());
  return client;
}

async function formPost(client: PageClient, fields: Record<string, string>) {
  const form = (await client.page('/submit')).html;
  const key = /name="idempotency_key" value="([^"]+)"/.exec(form)![1]!;
  const res = await client.request('/submit', {
    form: { _csrf: csrfOf(form), idempotency_key: key, plan: 'basic', ...fields },
  });
  return { res, html: await res.text() };
}

/** A live tool of `accountId`, its canonical URL key as a submit stores it (the seed helper keeps the URL as typed). */
async function liveTool(accountId: string, name: string) {
  const tool = await seedOwnedTool(t.deps.db, accountId, { name });
  const url = `https://${tool.slug}.example/`;
  await queryRows(
    t.deps.db,
    sql`UPDATE sites SET canonical_url = ${canonicalUrl(new URL(url))} WHERE id = ${tool.id}::uuid`,
  );
  return { ...tool, url };
}

const decode = (html: string) => html.replaceAll('&#39;', "'").replaceAll('&amp;', '&').replaceAll('&quot;', '"');

describe('one set of words for a refused address, on all four surfaces', () => {
  it.each([
    ['not a url', NOT_AN_ADDRESS],
    ['http://', NOT_AN_ADDRESS],
    ['acme', NOT_AN_ADDRESS],
    ['ftp://acme.com', 'The address must start with https:// or http://, not ftp:'],
    ['https://user:pw@acme.com', 'The address must not contain a user name or password'],
    ['https://localhost', 'The address must have a full host name, such as acme.com'],
    [
      'https:/acme.com',
      'The address must be an absolute URL with exactly two slashes after the scheme, such as https://example.com/',
    ],
  ])('%j', async (url, sentence) => {
    const m = await t.member('none');
    const name = uniqueName('Words');
    const rest = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name, url } });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toEqual({ error: { code: 'invalid_request', message: `url: ${sentence}` } });

    const mcp = await connectMcp(t, { key: m.key });
    expect(resultJson(await callTool(mcp, 'submit_site', { name, url }))).toEqual({
      error: { code: 'invalid_request', message: `url: ${sentence}` },
    });
    await mcp.close();

    const form = await formPost(await signedInForm(), { name, url });
    expect(form.res.status).toBe(400);
    expect(decode(form.html)).toContain(`<span class="field-error" id="url-error">${sentence}.</span>`);

    const run = await cli(m.key, ['submit', url, '--name', name]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`url: ${sentence}`);
    expect(run.requests).toEqual([]); // refused before the API is asked
    // No surface claims an http(s) address lacks its scheme.
    if (/^https?:\/\//.test(url)) for (const said of [sentence]) expect(said).not.toMatch(/start with/);
  });
});

describe('a bare host gets https://, and the person is told, on every surface', () => {
  const notice = (h: string) => `No scheme was given, so https:// was added: https://${h}/`;

  it('REST answers with the completed address and a notice (201 and 402), stored with https://', async () => {
    const member = await t.member('member');
    const h1 = host();
    const queued = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: member.key,
      json: { name: uniqueName('Bare'), url: h1 },
    });
    expect(queued.status).toBe(201);
    expect((await queued.json()).notices).toEqual([notice(h1)]);
    const payer = await t.member('none');
    const h2 = host();
    const pending = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: payer.key,
      json: { name: uniqueName('Bare'), url: h2 },
    });
    expect(pending.status).toBe(402);
    expect(await pending.json()).toMatchObject({ url: `https://${h2}/`, notices: [notice(h2)] });
    const plain = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: payer.key,
      json: { name: uniqueName('Plain'), url: `https://${host()}` },
    });
    expect(await plain.json()).not.toHaveProperty('notices');
  });

  it('MCP answers the same notice', async () => {
    const m = await t.member('none');
    const h = host();
    const mcp = await connectMcp(t, { key: m.key });
    expect(resultJson(await callTool(mcp, 'submit_site', { name: uniqueName('Bare'), url: h }))).toMatchObject({
      status: 'pending_payment',
      url: `https://${h}/`,
      notices: [notice(h)],
    });
    await mcp.close();
  });

  it('the web form shows the completed address and the notice before submitting, and the next press submits it', async () => {
    const client = await signedInForm();
    const h = host();
    const first = await formPost(client, { name: uniqueName('Bare'), url: h });
    expect(first.res.status).toBe(200);
    expect(decode(first.html)).toContain(
      `<p class="notice" role="status" id="url-notice">${notice(h)}. Check it and press the button again to submit.</p>`,
    );
    expect(first.html).toContain(`value="https://${h}/"`);
    const key = /name="idempotency_key" value="([^"]+)"/.exec(first.html)![1]!;
    const name = /id="name"[^>]*value="([^"]*)"/.exec(first.html)![1]!;
    const second = await client.request('/submit', {
      form: { _csrf: csrfOf(first.html), idempotency_key: key, plan: 'basic', name, url: `https://${h}/` },
    });
    expect(second.status).toBe(303); // to the checkout: nothing was submitted before the person saw the address
  });

  it('the CLI says the same words and sends the address with https://', async () => {
    const m = await t.member('none');
    const h = host();
    const run = await cli(m.key, ['submit', h, '--name', uniqueName('Bare')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`${notice(h)}\n`);
    expect(run.requests[0]!.body).toMatchObject({ url: `https://${h}` });
  });
});

describe('a duplicate names the listing it met, as the web form does', () => {
  it('another account’s live tool: its page; one’s own submission: its page and site_id', async () => {
    const owner = await t.member('member');
    const live = await liveTool(owner.accountId, uniqueName('Listed'));
    const url = live.url;
    const other = await t.member('member');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: other.key,
      json: { name: uniqueName('Copy'), url },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: {
        code: 'already_submitted',
        message: `A tool with this address is already listed: see its page at ${t.deps.origin}/tools/${live.slug}`,
      },
    });
    const own = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: owner.key,
      json: { name: uniqueName('Again'), url },
    });
    expect(await own.json()).toEqual({
      error: {
        code: 'already_submitted',
        message: `You already submitted this address: see your submission at ${t.deps.origin}/account/submissions/${live.id}`,
        site_id: live.id,
      },
    });
    // The form, for the other account: the same sentence with the page as a link.
    const client = new PageClient(t, uniqueIp());
    await client.signIn(other.email);
    const form = await formPost(client, { name: uniqueName('Copy'), url });
    expect(form.res.status).toBe(409);
    expect(form.html).toContain(
      `A tool with this address is already listed: <a href="/tools/${live.slug}">see its page</a>.`,
    );
  });
});

describe('tooldir stats takes a URL as tooldir status does', () => {
  it('finds the submission by its URL (any spelling of it) and shows its statistics', async () => {
    const owner = await t.member('member');
    const live = await liveTool(owner.accountId, uniqueName('Counted'));
    const byUrl = await cli(owner.key, ['--json', 'stats', `${live.slug}.example`]);
    expect(byUrl.stderr).toBe('');
    expect(byUrl.code).toBe(0);
    const byId = await cli(owner.key, ['--json', 'stats', live.id]);
    expect(JSON.parse(byUrl.stdout)).toEqual(JSON.parse(byId.stdout));
    expect(byUrl.requests.at(-1)!.path).toBe(`/api/v1/sites/${live.id}/stats`);
    const refused = await cli(owner.key, ['stats', 'not a url']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`url: ${NOT_AN_ADDRESS} (or give the site_id)`);
  });
});
