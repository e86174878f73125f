// Delivery scenarios shared by the PGlite and the PostgreSQL (Neon HTTP stand-in) runs: the real app with its
// pipeline and the local queue running in-process, a loopback receiver that checks every request with the five
// lines of docs/webhooks.md, and a webhook transport that cannot reach anything but loopback.
import { expect } from 'vitest';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import type { PipelineApp } from '../../helpers/pipeline-harness';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../helpers/webhook-receiver';

export interface ScenarioContext {
  t: PipelineApp;
  fixture: FixtureSite;
}

export const startToolSite = () =>
  startFixtureSite({
    '/': htmlPage('<title>Hooked Tool</title><meta name="description" content="A tool with a webhook">'),
  });

let n = 0;

async function register(t: PipelineApp, key: string, receiver: WebhookReceiver, path = '/hook') {
  const res = await t.request('/api/v1/webhooks', { method: 'POST', key, json: { url: `${receiver.url}${path}` } });
  expect(res.status).toBe(201);
  const hook = (await res.json()) as { webhook_id: string; secret: string };
  receiver.secret = hook.secret;
  return hook;
}

async function deliveries(t: PipelineApp, key: string, webhookId: string) {
  const res = await t.request(`/api/v1/webhooks/${webhookId}/deliveries`, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
}

const byEvent = (received: ReceivedWebhook[]) => {
  const groups = new Map<string, ReceivedWebhook[]>();
  for (const r of received)
    groups.set(r.event?.id ?? 'unverified', [...(groups.get(r.event?.id ?? 'unverified') ?? []), r]);
  return groups;
};

/**
 * A member's submission goes queued → crawling → pending_review → live (auto-approve). The receiver answers 500
 * to the first two requests of every event and 200 to the third: each transition arrives three times, signed,
 * and the deliveries list shows three attempts per event, one success.
 */
export async function transitionsWithRetries({ t, fixture }: ScenarioContext): Promise<void> {
  // 500 to the first two requests of each event (by Tooldir-Event-Id), then 200.
  const seen = new Map<string, number>();
  const receiver = await startWebhookReceiver((request) => {
    const id = String(request.headers['tooldir-event-id']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    return { status: (seen.get(id) ?? 0) <= 2 ? 500 : 200 };
  });
  try {
    const m = await t.member('member');
    const hook = await register(t, m.key, receiver);
    const name = `Hooked Tool ${++n}`;
    const url = `http://hooked-${n}-${Date.now()}.localhost:${fixture.port}/`;
    const siteId = await t.submit(m.key, { name, url });
    await t.settle();
    const site = await t.site(siteId);
    expect(site.status).toBe('live');

    const received = receiver.received;
    expect(received.map((r) => r.verifyError).filter(Boolean)).toEqual([]);
    const events = byEvent(received);
    expect(events.size).toBe(4);
    for (const [eventId, attempts] of events) {
      expect(attempts).toHaveLength(3);
      for (const a of attempts) {
        expect(a.headers['tooldir-event-id']).toBe(eventId);
        expect(a.headers['content-type']).toMatch(/^application\/json/);
        expect(a.headers['tooldir-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        // Every retry carries the very same event.
        expect(a.event).toEqual(attempts[0]!.event);
      }
    }
    const firsts = [...events.values()].map((attempts) => attempts[0]!.event!);
    expect(firsts.map((e) => `${e.data.previous_status}→${e.data.status}`).sort()).toEqual(
      ['null→queued', 'queued→crawling', 'crawling→pending_review', 'pending_review→live'].sort(),
    );
    const live = firsts.find((e) => e.data.status === 'live')!;
    expect(live).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'site.status_changed',
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: { site_id: siteId, name, url, status: 'live', previous_status: 'pending_review', live_url: site.live_url },
    });
    for (const e of firsts.filter((x) => x.data.status !== 'live')) expect(e.data).not.toHaveProperty('live_url');

    const log = await deliveries(t, m.key, hook.webhook_id);
    expect(log).toHaveLength(12);
    for (const eventId of events.keys()) {
      const attempts = log.filter((d) => d.event_id === eventId).sort((a, b) => Number(a.attempt) - Number(b.attempt));
      expect(attempts.map((d) => [d.attempt, d.status_code, d.succeeded, d.error])).toEqual([
        [1, 500, false, null],
        [2, 500, false, null],
        [3, 200, true, null],
      ]);
      expect(attempts[0]!.next_retry_at).toEqual(expect.any(String));
      expect(attempts[1]!.next_retry_at).toEqual(expect.any(String));
      expect(attempts[2]!.next_retry_at).toBeNull();
      expect(attempts[0]!.event_type).toBe('site.status_changed');
    }
  } finally {
    await receiver.close();
  }
}

/** A redirect is an answer, not a success: never followed (the target it names sees nothing), retried to the end. */
export async function redirectsNotFollowed({ t }: ScenarioContext): Promise<void> {
  const elsewhere = await startWebhookReceiver();
  const redirecting = await startWebhookReceiver(() => ({
    status: 302,
    headers: { location: `${elsewhere.url}/hook` },
  }));
  try {
    const m = await t.member('member');
    const hook = await register(t, m.key, redirecting);
    const ping = await t.request(`/api/v1/webhooks/${hook.webhook_id}/test`, { method: 'POST', key: m.key });
    expect(ping.status).toBe(202);
    const { event_id } = (await ping.json()) as { event_id: string };
    await t.settle();
    expect(elsewhere.received).toEqual([]);
    expect(redirecting.received).toHaveLength(7);
    expect(redirecting.received.map((r) => r.event?.id)).toEqual(Array(7).fill(event_id));
    const log = await deliveries(t, m.key, hook.webhook_id);
    expect(log.map((d) => d.attempt)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    for (const d of log) {
      expect(d).toMatchObject({
        event_id,
        event_type: 'ping',
        status_code: 302,
        succeeded: false,
        error: expect.stringMatching(/redirects are not followed/),
      });
    }
    expect(log[0]!.next_retry_at).toBeNull();
  } finally {
    await elsewhere.close();
    await redirecting.close();
  }
}

/** POST …/test: a signed ping reaches the endpoint once and is logged as one successful attempt. */
export async function testPing({ t }: ScenarioContext): Promise<void> {
  const receiver = await startWebhookReceiver();
  try {
    const m = await t.member('member');
    const hook = await register(t, m.key, receiver);
    const { event_id } = (await (
      await t.request(`/api/v1/webhooks/${hook.webhook_id}/test`, { method: 'POST', key: m.key })
    ).json()) as { event_id: string };
    await t.settle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verifyError).toBeUndefined();
    expect(receiver.received[0]!.event).toEqual({
      id: event_id,
      type: 'ping',
      created: expect.any(String),
      data: { webhook_id: hook.webhook_id, url: `${receiver.url}/hook` },
    });
    const log = await deliveries(t, m.key, hook.webhook_id);
    expect(log).toEqual([
      {
        event_id,
        event_type: 'ping',
        attempt: 1,
        status_code: 200,
        error: null,
        succeeded: true,
        at: expect.any(String),
        next_retry_at: null,
      },
    ]);
  } finally {
    await receiver.close();
  }
}
