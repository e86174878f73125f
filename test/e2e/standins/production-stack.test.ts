// Self-test of startProductionStack: every env URL is loopback and each service answers through its real client.
import { neon } from '@neondatabase/serverless';
import { Client } from '@upstash/qstash';
import { Redis } from '@upstash/redis';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPostgresBinaries } from '../../helpers/services/postgres';
import { findRedisServer } from '../../helpers/services/redis';
import { requireService } from '../../helpers/services/require-service';
import { type ProductionStack, startProductionStack } from '../../helpers/standins/production-stack';

const describeStack = requireService(
  'PostgreSQL and Redis',
  findPostgresBinaries() !== null && findRedisServer() !== null,
);

describeStack('production stack', () => {
  let stack: ProductionStack;
  beforeAll(async () => {
    stack = await startProductionStack();
  });
  afterAll(() => stack?.close());

  it('points every URL in the env at loopback', () => {
    for (const name of [
      'DATABASE_URL',
      'NEON_FETCH_ENDPOINT',
      'UPSTASH_REDIS_REST_URL',
      'QSTASH_URL',
      'STRIPE_API_URL',
      'MAIL_API_URL',
    ]) {
      expect(new URL(stack.env[name] ?? '').hostname, name).toBe('127.0.0.1');
    }
  });

  it('answers through the production clients', async () => {
    const { env } = stack;
    expect(await neon(env.DATABASE_URL ?? '')`select 2 + 2 as four`).toEqual([{ four: 4 }]);
    const redis = new Redis({ url: env.UPSTASH_REDIS_REST_URL ?? '', token: env.UPSTASH_REDIS_REST_TOKEN ?? '' });
    expect(await redis.incr('stack')).toBe(1);
    const qstash = new Client({ baseUrl: env.QSTASH_URL ?? '', token: env.QSTASH_TOKEN ?? '' });
    await qstash.publishJSON({ url: 'https://tooldir.example/api/jobs/crawl', body: { siteId: 's' } });
    expect(stack.qstash.messages).toHaveLength(1);
    const api = new URL(env.STRIPE_API_URL ?? '');
    const stripe = new Stripe(env.STRIPE_SECRET_KEY ?? '', {
      host: api.hostname,
      port: Number(api.port),
      protocol: 'http',
    });
    expect(
      (
        await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ price: env.STRIPE_PRICE_BASIC, quantity: 1 }],
        })
      ).status,
    ).toBe('open');
  });
});
