// Self-test of the QStash signer (checked by the real Receiver) and the QStash API stand-in (driven by the real Client).
import { createServer } from 'node:http';
import { Client, Receiver } from '@upstash/qstash';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listenOnLoopback } from '../../helpers/standins/listen';
import { type QStashStandIn, startQStashStandIn } from '../../helpers/standins/qstash-server';
import { signQStash } from '../../helpers/standins/qstash-signer';
import { readBody } from '../../helpers/standins/http-io';

const currentSigningKey = 'sig_current_0123456789abcdef';
const nextSigningKey = 'sig_next_fedcba9876543210';
const url = 'https://tooldir.example/api/jobs/crawl';
const body = JSON.stringify({ siteId: 'site_123', attempt: 1 });

describe('QStash signer', () => {
  const receiver = new Receiver({ currentSigningKey, nextSigningKey });

  it('produces a token the real Receiver accepts', async () => {
    const signature = signQStash({ body, url, key: currentSigningKey });
    await expect(receiver.verify({ signature, body, url })).resolves.toBe(true);
  });

  it('is accepted when signed with the NEXT key (rotation)', async () => {
    const signature = signQStash({ body, url, key: nextSigningKey });
    await expect(receiver.verify({ signature, body, url })).resolves.toBe(true);
  });

  it.each([
    [
      'a tampered body',
      () => receiver.verify({ signature: signQStash({ body, url, key: currentSigningKey }), body: `${body} `, url }),
    ],
    [
      'another url',
      () => receiver.verify({ signature: signQStash({ body, url, key: currentSigningKey }), body, url: `${url}x` }),
    ],
    [
      'an expired token',
      () =>
        receiver.verify({
          signature: signQStash({ body, url, key: currentSigningKey, now: Math.floor(Date.now() / 1000) - 3600 }),
          body,
          url,
        }),
    ],
    ['a wrong key', () => receiver.verify({ signature: signQStash({ body, url, key: 'sig_wrong' }), body, url })],
  ])('is rejected for %s with a SignatureError', async (_case, verify) => {
    await expect(verify()).rejects.toMatchObject({ name: 'SignatureError' });
  });
});

describe('QStash API stand-in', () => {
  let qstash: QStashStandIn;
  let client: Client;
  beforeAll(async () => {
    qstash = await startQStashStandIn();
    client = new Client({ token: qstash.token, baseUrl: qstash.url, retry: false });
  });
  afterAll(() => qstash?.close());

  it('records publishes with the headers the SDK sends', async () => {
    const result = await client.publishJSON({
      url,
      body: { siteId: 'site_1' },
      deduplicationId: 'site_1:crawl:1',
      failureCallback: 'https://tooldir.example/api/jobs/failed',
      retries: 3,
      delay: 5,
    });
    expect(result).toEqual({ messageId: expect.stringMatching(/^msg_/) });
    expect(qstash.messages).toHaveLength(1);
    expect(qstash.messages[0]).toMatchObject({
      messageId: (result as { messageId: string }).messageId,
      destination: url,
      body: '{"siteId":"site_1"}',
      deduplicationId: 'site_1:crawl:1',
      failureCallback: 'https://tooldir.example/api/jobs/failed',
      retries: 3,
      delay: '5s',
    });
    expect(qstash.messages[0]?.headers['content-type']).toBe('application/json');
  });

  it('accepts a repeated deduplication id without enqueueing it again', async () => {
    qstash.clearMessages();
    const first = await client.publishJSON({ url, body: { siteId: 'dup' }, deduplicationId: 'dup:crawl:1' });
    const again = await client.publishJSON({ url, body: { siteId: 'dup' }, deduplicationId: 'dup:crawl:1' });
    expect(again).toEqual({ messageId: (first as { messageId: string }).messageId, deduplicated: true });
    await client.publishJSON({ url, body: { siteId: 'dup' }, deduplicationId: 'dup:crawl:2' });
    expect(qstash.messages.map((m) => m.deduplicationId)).toEqual(['dup:crawl:1', 'dup:crawl:2']);
  });

  it('creates schedules with their cron and answers a scheduleId', async () => {
    const { scheduleId } = await client.schedules.create({
      destination: 'https://tooldir.example/api/jobs/sweep',
      cron: '*/5 * * * *',
    });
    expect(scheduleId).toMatch(/^scd_/);
    expect(qstash.schedules).toEqual([
      expect.objectContaining({
        scheduleId,
        destination: 'https://tooldir.example/api/jobs/sweep',
        cron: '*/5 * * * *',
      }),
    ]);
    expect(await client.schedules.list()).toEqual([expect.objectContaining({ scheduleId, cron: '*/5 * * * *' })]);
    await client.schedules.delete(scheduleId);
    expect(qstash.schedules).toEqual([]);
  });

  it('rejects a wrong token', async () => {
    const wrong = new Client({ token: 'nope', baseUrl: qstash.url, retry: false });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {}); // the SDK logs every failed request
    try {
      await expect(wrong.publishJSON({ url, body: {} })).rejects.toThrow(/Unauthorized/);
    } finally {
      quiet.mockRestore();
    }
  });

  it('delivers a recorded message signed so the receiving endpoint verifies it', async () => {
    const seen: { verified: boolean; body: string }[] = [];
    const receiver = new Receiver({ currentSigningKey, nextSigningKey });
    const endpoint = await listenOnLoopback(
      createServer(async (req, res) => {
        const received = await readBody(req);
        const target = `http://127.0.0.1:${endpoint.port}${req.url}`;
        const verified = await receiver
          .verify({ signature: String(req.headers['upstash-signature']), body: received, url: target })
          .catch(() => false);
        seen.push({ verified, body: received });
        res.writeHead(verified ? 200 : 401).end();
      }),
    );
    try {
      qstash.clearMessages();
      await client.publishJSON({ url: `${endpoint.url}/api/jobs/crawl`, body: { siteId: 'site_2' } });
      const [message] = qstash.messages;
      if (!message) throw new Error('nothing published');
      expect((await qstash.deliver(message, currentSigningKey)).status).toBe(200);
      expect((await qstash.deliver(message, 'sig_wrong')).status).toBe(401);
      expect(seen).toEqual([
        { verified: true, body: '{"siteId":"site_2"}' },
        { verified: false, body: '{"siteId":"site_2"}' },
      ]);
      await expect(qstash.deliver({ ...message, destination: 'http://10.0.0.1/x' }, currentSigningKey)).rejects.toThrow(
        /non-loopback/,
      );
    } finally {
      await endpoint.close();
    }
  });
});
