import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Env } from '../../src/config';

/** The least a production (DATABASE_URL) configuration needs besides the database. */
const production = (env: Env = {}): Env => ({
  DATABASE_URL: 'postgres://u:p@db.example/x',
  SITE_ORIGIN: 'https://tooldir.example',
  MAIL_API_URL: 'https://mail.example/send',
  ADMIN_TOKEN: 'production-admin-token-0123456789',
  ...env,
});

describe('loadConfig', () => {
  it('defaults to local mode with embedded adapters', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      local: true,
      port: 8787,
      dataDir: '.data',
      dailyLimits: { member: 5, memberFeature: 10 },
      autoApprove: true,
    });
    expect(c.stripe).toBeUndefined();
    expect(c.upstash).toBeUndefined();
    expect(c.qstash).toBeUndefined();
  });

  it('production mode when DATABASE_URL is set: auto-approve off by default', () => {
    expect(loadConfig(production())).toMatchObject({ local: false, autoApprove: false });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
    [{ DATABASE_POOL_MAX: 'many' }, 'DATABASE_POOL_MAX'],
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

  it('keeps 4 connections to PostgreSQL unless DATABASE_POOL_MAX says otherwise', () => {
    expect(loadConfig({}).databasePoolMax).toBe(4);
    expect(loadConfig({ DATABASE_POOL_MAX: '12' }).databasePoolMax).toBe(12);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: '', UPSTASH_REDIS_REST_URL: ' ' }).stripe).toBeUndefined();
  });

  describe('ADMIN_TOKEN (the operator token, and the key of the sign-in code hashes)', () => {
    it('is required outside local mode, and the message names it', () => {
      for (const missing of [undefined, '', '   ']) {
        expect(() => loadConfig(production({ ADMIN_TOKEN: missing }))).toThrow(
          /^Invalid configuration: ADMIN_TOKEN is required when DATABASE_URL is set/,
        );
      }
    });

    it('is optional in local mode (the local entry generates one into DATA_DIR)', () => {
      expect(loadConfig({}).adminToken).toBeUndefined();
    });
  });

  describe('SITE_ORIGIN (src/origin.ts: our origin never comes from the Host header)', () => {
    it('is required outside local mode, and the message names it', () => {
      expect(() => loadConfig(production({ SITE_ORIGIN: undefined }))).toThrow(ConfigError);
      expect(() => loadConfig(production({ SITE_ORIGIN: ' ' }))).toThrow(
        /^Invalid configuration: SITE_ORIGIN is required/,
      );
    });

    it('is optional in local mode', () => {
      expect(loadConfig({}).siteOrigin).toBeUndefined();
    });

    it('is normalised to the serialised origin a browser sends', () => {
      expect(loadConfig(production({ SITE_ORIGIN: 'HTTPS://Tooldir.Example:443/' })).siteOrigin).toBe(
        'https://tooldir.example',
      );
      expect(loadConfig({ SITE_ORIGIN: 'http://127.0.0.1:8787' }).siteOrigin).toBe('http://127.0.0.1:8787');
    });

    it.each([
      'https://tooldir.example/app',
      'https://tooldir.example/?x=1',
      'https://tooldir.example#top',
      'https://u:p@tooldir.example',
      'ftp://tooldir.example',
      'https://tooldir.example?',
    ])('refuses %s: links append paths to it and Origin checks compare it whole', (value) => {
      expect(() => loadConfig(production({ SITE_ORIGIN: value }))).toThrow(
        /^Invalid configuration: SITE_ORIGIN must be an origin/,
      );
    });
  });

  describe('mail transport (never a silent fallback outside local mode)', () => {
    it('local mode without a mail API keeps mail in the outbox', () => {
      expect(loadConfig({}).mail).toEqual({ transport: 'outbox' });
    });

    it('MAIL_API_URL selects the HTTP mail API, in either mode', () => {
      expect(loadConfig(production({ MAIL_API_KEY: 'k' })).mail).toEqual({
        transport: 'http',
        apiUrl: 'https://mail.example/send',
        apiKey: 'k',
      });
      expect(loadConfig({ MAIL_API_URL: 'http://127.0.0.1:9/send' }).mail).toEqual({
        transport: 'http',
        apiUrl: 'http://127.0.0.1:9/send',
        apiKey: undefined,
      });
    });

    it('outside local mode without MAIL_API_URL refuses to start, naming MAIL_API_URL and MAIL_TRANSPORT', () => {
      const start = () => loadConfig(production({ MAIL_API_URL: undefined }));
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/MAIL_API_URL is required when DATABASE_URL is set.*MAIL_TRANSPORT=outbox/);
    });

    it('an explicit MAIL_TRANSPORT=outbox is accepted outside local mode', () => {
      expect(loadConfig(production({ MAIL_API_URL: undefined, MAIL_TRANSPORT: 'outbox' })).mail).toEqual({
        transport: 'outbox',
      });
    });

    it.each([
      [{ MAIL_TRANSPORT: 'smtp' }, /MAIL_TRANSPORT/],
      [{ MAIL_TRANSPORT: 'http', MAIL_API_URL: undefined }, /MAIL_API_URL is required when MAIL_TRANSPORT=http/],
      [{ MAIL_TRANSPORT: 'outbox' }, /MAIL_TRANSPORT=outbox and MAIL_API_URL exclude each other/],
    ])('refuses an unclear choice: %j', (env, message) => {
      expect(() => loadConfig(production(env))).toThrow(message);
    });
  });
});
