import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  it('defaults to local mode with embedded adapters', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ local: true, port: 8787, dataDir: '.data', dailyLimits: { member: 5, memberFeature: 10 }, autoApprove: true });
    expect(c.stripe).toBeUndefined();
    expect(c.upstash).toBeUndefined();
    expect(c.qstash).toBeUndefined();
  });

  it('production mode when DATABASE_URL is set: auto-approve off by default', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db.example/x' })).toMatchObject({ local: false, autoApprove: false });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ MEMBER_DAILY_LIMIT: '-1' }, 'MEMBER_DAILY_LIMIT'],
    [{ SITE_ORIGIN: 'not a url' }, 'SITE_ORIGIN'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ CRAWL_ALLOW_PRIVATE: 'yes' }, 'CRAWL_ALLOW_PRIVATE'],
    [{ UPSTASH_REDIS_REST_URL: 'https://x.upstash.io' }, 'UPSTASH_REDIS_REST_TOKEN'],
    [{ STRIPE_SECRET_KEY: 'sk_test_x' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ QSTASH_TOKEN: 't' }, 'QSTASH_CURRENT_SIGNING_KEY'],
    [{ SIGNUP: 'maybe' }, 'SIGNUP'],
  ])('names the bad variable: %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: '', UPSTASH_REDIS_REST_URL: ' ' }).stripe).toBeUndefined();
  });
});
