// The sweep is what recovers a webhook delivery whose queue message was lost (a restarted local queue, a publish
// that never arrived), and what forgets finished deliveries after 30 days. Time passing is simulated by moving
// the rows' timestamps back.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobMessage, JobQueue, JobStep } from '../../../src/adapters/queue/types';
import { createPipelineApp, type PipelineApp } from '../../helpers/pipeline-harness';
import { ADMIN_TOKEN } from '../../helpers/test-app';
import {
  loopbackOnlyWebhookTransport,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver';
import { createLocalQueue } from '../../../src/adapters/queue/local';
import { createLogger } from '../../../src/log';
import { runJob } from '../../../src/jobs/run-job';

const transport = loopbackOnlyWebhookTransport();
/** A local queue that loses the next `lose` webhook messages, like a process that died holding them. */
const inner = createLocalQueue({ log: createLogger('silent'), retryDelayMs: 5 });
let lose = 0;
const lossyQueue: JobQueue & { idle(): Promise<void> } = {
  kind: 'local',
  enqueue: async (step: JobStep, message: JobMessage, opts) => {
    if (step === 'webhook' && lose > 0) {
      lose--;
      return;
    }
    await inner.enqueue(step, message, opts);
  },
  idle: () => inner.idle(),
};
let t: PipelineApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await createPipelineApp({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
    overrides: { webhooks: transport, queue: lossyQueue },
  });
  inner.bind(async (step, message) => void (await runJob(t.deps, step, message)));
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  inner.stop();
  await t.close();
  await receiver.close();
  expect(transport.violations).toEqual([]);
});

const sweep = async () => {
  const res = await t.request('/api/jobs/sweep', { method: 'POST', key: ADMIN_TOKEN, json: {} });
  expect(res.status).toBe(200);
  await inner.idle();
};

describe('the sweep and webhook deliveries', () => {
  it('re-sends a delivery whose message was lost once its next attempt is 15 minutes overdue, and only then', async () => {
    const m = await t.member('member');
    const created = await (
      await t.request('/api/v1/webhooks', { method: 'POST', key: m.key, json: { url: `${receiver.url}/hook` } })
    ).json();
    receiver.secret = created.secret;
    lose = 1;
    const { event_id } = await (
      await t.request(`/api/v1/webhooks/${created.webhook_id}/test`, { method: 'POST', key: m.key })
    ).json();
    await inner.idle();
    expect(receiver.received).toEqual([]);

    await sweep();
    expect(receiver.received).toEqual([]);

    await t.deps.db.execute(
      sql`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '16 minutes' WHERE event_id = ${event_id}`,
    );
    await sweep();
    expect(receiver.received.map((r) => [r.event?.id, r.verifyError])).toEqual([[event_id, undefined]]);
    // Delivered: a later sweep sends nothing more.
    await t.deps.db.execute(
      sql`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '16 minutes' WHERE event_id = ${event_id}`,
    );
    await sweep();
    expect(receiver.received).toHaveLength(1);
  });

  it('forgets finished deliveries after 30 days', async () => {
    const m = await t.member('member');
    const created = await (
      await t.request('/api/v1/webhooks', { method: 'POST', key: m.key, json: { url: `${receiver.url}/hook` } })
    ).json();
    receiver.secret = created.secret;
    const { event_id } = await (
      await t.request(`/api/v1/webhooks/${created.webhook_id}/test`, { method: 'POST', key: m.key })
    ).json();
    await inner.idle();
    const log = async () =>
      (await (await t.request(`/api/v1/webhooks/${created.webhook_id}/deliveries`, { key: m.key })).json()).data;
    expect(await log()).toHaveLength(1);
    await t.deps.db.execute(
      sql`UPDATE webhook_deliveries SET created_at = now() - interval '29 days' WHERE event_id = ${event_id}`,
    );
    await sweep();
    expect(await log()).toHaveLength(1);
    await t.deps.db.execute(
      sql`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE event_id = ${event_id}`,
    );
    await sweep();
    expect(await log()).toEqual([]);
  });
});
