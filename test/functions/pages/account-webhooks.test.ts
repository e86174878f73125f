// /account/webhooks (PGlite, app.request): add (secret shown once), test ping delivered to a loopback receiver,
// deliveries, remove; the same verbs, rules, cap and bucket as /api/v1/webhooks. The webhook transport answers only
// the names of its table and connects only to loopback: any other lookup or connection fails the suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePolicy } from '../../../src/rate-limits/describe';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import {
  loopbackOnlyWebhookTransport,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver';
import { PageClient, csrfOf, signedInMember } from './account-client';

const transport = loopbackOnlyWebhookTransport({ 'hooks.example': ['93.184.215.14'] });
let t: PipelineApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await createPipelineApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, overrides: { webhooks: transport } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  expect(transport.violations).toEqual([]);
  expect(networkViolations).toEqual([]);
});

const onceOf = (html: string) => /name="once" value="([0-9A-Za-z]{32})"/.exec(html)?.[1] ?? '';

/** Sends the add form as the page renders it (CSRF token, once-key) with `url`. */
async function add(client: PageClient, url: string) {
  const { html } = await client.page('/account/webhooks');
  return client.request('/account/webhooks', { form: { _csrf: csrfOf(html), once: onceOf(html), url } });
}

const apiList = async (key: string) =>
  (
    (await (await t.request('/api/v1/webhooks', { key })).json()) as {
      data: Array<{ webhook_id: string; url: string }>;
    }
  ).data;
const secretOf = (html: string) =>
  /id="new-webhook-secret" type="text" readonly value="(whsec_[0-9A-Za-z]{32})"/.exec(html)?.[1];

describe('/account/webhooks', () => {
  it('adds a webhook and shows its signing secret once; a test ping reaches the receiver signed and is listed; Delete removes it', async () => {
    const { m, client } = await signedInMember(t, 'member');
    let { res, html } = await client.page('/account/webhooks');
    expect(res.status).toBe(200);
    expect(html).toContain('<a href="/account/webhooks" aria-current="page">Webhooks</a>');
    expect(html).toContain('id="no-webhooks"');

    const target = `${receiver.url}/hook`;
    const created = await add(client, target);
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe('/account/webhooks');
    ({ res, html } = await client.page('/account/webhooks'));
    const secret = secretOf(html)!;
    expect(secret).toBeDefined();
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/); // the copy button's script, by its hash
    const [hook] = await apiList(m.key);
    expect(hook).toMatchObject({ url: target });
    expect(html).toContain(`data-webhook-id="${hook!.webhook_id}"`);
    // Shown once: a reload has neither the secret nor the notice.
    ({ html } = await client.page('/account/webhooks'));
    expect(secretOf(html)).toBeUndefined();
    expect(html).not.toContain(secret);

    receiver.secret = secret;
    const pinged = await client.request(`/account/webhooks/${hook!.webhook_id}/test`, {
      form: { _csrf: csrfOf(html) },
    });
    expect(pinged.status).toBe(303);
    expect(pinged.headers.get('location')).toBe(
      `/account/webhooks?pinged=${hook!.webhook_id}#webhook-${hook!.webhook_id}`,
    );
    await t.settle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verifyError).toBeUndefined(); // verified with the secret the page showed, by the documented five lines
    expect(receiver.received[0]!.event).toMatchObject({
      type: 'ping',
      data: { webhook_id: hook!.webhook_id, url: target },
    });
    ({ html } = await client.page(pinged.headers.get('location')!.split('#')[0]!));
    expect(html).toContain('A signed test ping is on its way');
    expect(html).toMatch(
      /<td data-label="Event">ping <span class="muted small">evt_[0-9a-f]{32}<\/span><\/td><td data-label="Attempt">1<\/td>\s*<td data-label="Result">delivered \(HTTP 200\)<\/td>/,
    );

    const deleted = await client.request(`/account/webhooks/${hook!.webhook_id}/delete`, {
      form: { _csrf: csrfOf(html) },
    });
    expect(deleted.status).toBe(303);
    expect(await apiList(m.key)).toEqual([]);
    ({ html } = await client.page('/account/webhooks'));
    expect(html).toContain('id="no-webhooks"');
  });

  it('refuses a URL the API refuses, on the form: what was typed kept, the message next to the field and in an alert', async () => {
    const { m, client } = await signedInMember(t, 'member');
    for (const [url, message] of [
      ['', 'url must be an absolute https URL'],
      ['ftp://hooks.example/x', 'url must be an https URL'],
      ['javascript:alert(1)', 'url must be an https URL'],
      ['https://user:pw@hooks.example/x', 'url must not contain credentials'],
      [`https://hooks.example/${'a'.repeat(2100)}`, 'url must be at most 2048 characters'],
      ['https://"><b>x/', 'url must be an absolute https URL'],
    ]) {
      const res = await add(client, url!);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain(`<span class="field-error" id="webhook-url-error">${message}</span>`);
      expect(html).toContain('aria-invalid="true" aria-describedby="webhook-url-error"');
      if (url!.length < 100)
        expect(html).toContain(
          `value="${url!.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`,
        );
      expect(html).not.toContain('<b>');
    }
    expect(await apiList(m.key)).toEqual([]);
  });

  it('without WEBHOOK_ALLOW_PRIVATE a private or loopback target is refused, and no packet leaves', async () => {
    const strictTransport = loopbackOnlyWebhookTransport({ 'intranet.example': ['10.0.0.7'] });
    const strict = await createPipelineApp({ overrides: { webhooks: strictTransport } });
    try {
      const m = await strict.member('member');
      const client = new PageClient(strict);
      await client.signIn(m.email);
      for (const [url, message] of [
        ['https://intranet.example/hook', 'url refused: the address is not public'],
        // Local mode allows plain http, never loopback.
        [`${receiver.url}/hook`, 'url refused: the address is not public'],
        [`${receiver.url.replace('http:', 'https:')}/hook`, 'url refused: the address is not public'],
        ['https://intranet.example:8443/hook', 'url refused: only ports 80 and 443 are allowed'],
      ] as const) {
        const { html } = await client.page('/account/webhooks');
        const res = await client.request('/account/webhooks', { form: { _csrf: csrfOf(html), url } });
        expect(res.status).toBe(400);
        expect(await res.text()).toContain(message);
      }
      expect(strictTransport.fetched).toEqual([]);
      expect(strictTransport.violations).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('holds the cap of 5 (the form is replaced by a note; a sixth POST is 409 on the form)', async () => {
    const { m, client } = await signedInMember(t, 'member');
    for (let i = 0; i < 5; i++) expect((await add(client, `https://hooks.example/${i}`)).status).toBe(303);
    const { html } = await client.page('/account/webhooks');
    expect(html).toContain('id="webhooks-full"');
    expect(html).not.toContain('Add webhook</button>');
    const sixth = await client.request('/account/webhooks', {
      form: { _csrf: csrfOf(html), url: 'https://hooks.example/6' },
    });
    expect(sixth.status).toBe(409);
    expect(await sixth.text()).toContain('at most 5 webhooks');
    expect(await apiList(m.key)).toHaveLength(5);
  });

  it('refuses missing or foreign CSRF tokens (403) on add, test and delete; changes nothing', async () => {
    const { m, client } = await signedInMember(t, 'member');
    expect((await add(client, 'https://hooks.example/keep')).status).toBe(303);
    const [hook] = await apiList(m.key);
    const { html } = await client.page('/account/webhooks');
    expect((await client.request('/account/webhooks', { form: { url: 'https://hooks.example/x' } })).status).toBe(403);
    expect(
      (
        await client.request('/account/webhooks', {
          form: { _csrf: csrfOf(html), url: 'https://hooks.example/x' },
          headers: { origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await client.request(`/account/webhooks/${hook!.webhook_id}/test`, { form: { _csrf: 'wrong' } })).status,
    ).toBe(403);
    expect((await client.request(`/account/webhooks/${hook!.webhook_id}/delete`, { form: {} })).status).toBe(403);
    expect(await apiList(m.key)).toEqual([hook]);
  });

  it("another account's (or a malformed) webhook id: a test ping is 404, a delete touches nothing and lands on the list", async () => {
    const owner = await signedInMember(t, 'member');
    expect((await add(owner.client, 'https://hooks.example/owned')).status).toBe(303);
    const [hook] = await apiList(owner.m.key);
    const { client } = await signedInMember(t, 'member');
    const { html } = await client.page('/account/webhooks');
    for (const id of [hook!.webhook_id, 'not-a-uuid', crypto.randomUUID()]) {
      const res = await client.request(`/account/webhooks/${id}/test`, { form: { _csrf: csrfOf(html) } });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('No webhook with this id on your account.');
      const deleted = await client.request(`/account/webhooks/${id}/delete`, { form: { _csrf: csrfOf(html) } });
      expect(deleted.status).toBe(303);
      expect(deleted.headers.get('location')).toBe('/account/webhooks');
    }
    expect(await apiList(owner.m.key)).toEqual([hook]);
  });

  it('a double click or a reload of Add adds one endpoint and shows the secret of that one; a double-clicked Delete deletes it once', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const { html } = await client.page('/account/webhooks');
    const form = { _csrf: csrfOf(html), once: onceOf(html), url: 'https://hooks.example/once' };
    const clicks = await Promise.all([0, 1].map(() => client.request('/account/webhooks', { form })));
    expect(clicks.map((r) => r.status)).toEqual([303, 303]);
    expect((await client.request('/account/webhooks', { form })).status).toBe(303); // a reload of the POST
    const hooks = await apiList(m.key);
    expect(hooks).toHaveLength(1);
    const page = await client.page('/account/webhooks');
    expect(secretOf(page.html)).toMatch(/^whsec_/);
    // The same form with another URL (the person changed the field) is a new endpoint.
    expect(
      (await client.request('/account/webhooks', { form: { ...form, url: 'https://hooks.example/other' } })).status,
    ).toBe(303);
    expect(await apiList(m.key)).toHaveLength(2);
    const removes = await Promise.all(
      [0, 1].map(() =>
        client.request(`/account/webhooks/${hooks[0]!.webhook_id}/delete`, { form: { _csrf: csrfOf(page.html) } }),
      ),
    );
    expect(removes.map((r) => r.status)).toEqual([303, 303]);
    expect((await apiList(m.key)).map((h) => h.url)).toEqual(['https://hooks.example/other']);
  });

  it('signed out: every page and form leads to sign-in with next back to the webhooks page', async () => {
    const stranger = new PageClient(t);
    const id = crypto.randomUUID();
    for (const [path, form] of [
      ['/account/webhooks', undefined],
      ['/account/webhooks', { url: 'https://hooks.example/x' }],
      [`/account/webhooks/${id}/test`, {}],
      [`/account/webhooks/${id}/delete`, {}],
    ] as const) {
      const res = await stranger.request(path, form ? { form } : {});
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/account/sign-in?next=${encodeURIComponent('/account/webhooks')}`);
    }
  });

  it('shares the per-account webhooks bucket with the API (10 per minute), then a 429 page', async () => {
    const { m, client } = await signedInMember(t, 'member');
    // Loopback endpoints: the ping below is really delivered (to the shared receiver, which answers 200).
    for (let i = 0; i < 5; i++) expect((await add(client, `${receiver.url}/r${i}`)).status).toBe(303);
    const hooks = await apiList(m.key);
    for (const h of hooks.slice(0, 4))
      expect((await t.request(`/api/v1/webhooks/${h.webhook_id}`, { method: 'DELETE', key: m.key })).status).toBe(204);
    const { html } = await client.page('/account/webhooks');
    expect(
      (await client.request(`/account/webhooks/${hooks[4]!.webhook_id}/test`, { form: { _csrf: csrfOf(html) } }))
        .status,
    ).toBe(303);
    const refused = await client.request(`/account/webhooks/${hooks[4]!.webhook_id}/delete`, {
      form: { _csrf: csrfOf(html) },
    });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(describePolicy('webhooks'));
    expect(await apiList(m.key)).toHaveLength(1);
    await t.settle();
  });
});
