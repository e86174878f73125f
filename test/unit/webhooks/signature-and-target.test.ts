// Pure rules: the signature our sender makes is the one the documented five lines accept (and only that one), the
// retry schedule spans more than a day, and a webhook URL's shape (https only unless local mode or WEBHOOK_ALLOW_PRIVATE).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_RETRIES, webhookRetryDelayMs } from '../../../src/webhooks/backoff';
import { generateWebhookSecret, signatureHeader } from '../../../src/webhooks/signature';
import { checkWebhookUrlShape } from '../../../src/webhooks/target';
import { documentedVerifier } from '../../helpers/webhook-receiver';

const verify = documentedVerifier();
const body = '{"id":"evt_1","type":"ping","created":"2026-11-23T12:00:00.000Z","data":{"x":"é ✓"}}';
const now = () => Math.floor(Date.now() / 1000);

describe('Tooldir-Signature and the documented verification', () => {
  it('accepts what the sender signs', () => {
    const secret = generateWebhookSecret();
    expect(() => verify(signatureHeader(secret, now(), body), body, secret)).not.toThrow();
  });

  it('refuses another secret, a changed body, a stale or future timestamp, and garbage', () => {
    const secret = generateWebhookSecret();
    const header = signatureHeader(secret, now(), body);
    expect(() => verify(header, body, generateWebhookSecret())).toThrow(/invalid Tooldir-Signature/);
    expect(() => verify(header, body.replace('ping', 'pong'), secret)).toThrow(/invalid Tooldir-Signature/);
    expect(() => verify(signatureHeader(secret, now() - 301, body), body, secret)).toThrow(/invalid Tooldir-Signature/);
    expect(() => verify(signatureHeader(secret, now() + 301, body), body, secret)).toThrow(/invalid Tooldir-Signature/);
    expect(() => verify('', body, secret)).toThrow();
    expect(() => verify(`t=${now()},v1=${'0'.repeat(64)}`, body, secret)).toThrow(/invalid Tooldir-Signature/);
  });

  it('the README shows the same five lines as docs/webhooks.md', () => {
    const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
    const docLines = /<!-- verify-snippet[^>]*-->\s*```js\n([\s\S]*?)```/
      .exec(read('docs/webhooks.md'))![1]!
      .trimEnd()
      .split('\n');
    const readme = read('README.md')
      .split('\n')
      .map((line) => line.trim());
    for (const line of docLines) expect(readme).toContain(line.trim());
  });

  it('is Stripe-shaped: t=<unix seconds>,v1=<64 hex>', () => {
    expect(signatureHeader('whsec_x', 1700000000, '{}')).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(generateWebhookSecret()).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });
});

describe('retry schedule', () => {
  it('spreads 7 attempts over more than a day, each wait at most a day', () => {
    const waits = Array.from({ length: WEBHOOK_RETRIES }, (_, i) => webhookRetryDelayMs(i));
    expect(waits.every((w) => w > 0 && w <= 86_400_000)).toBe(true);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(86_400_000);
  });
});

describe('webhook URL shape', () => {
  it('is https only outside local mode, http allowed in local mode or with WEBHOOK_ALLOW_PRIVATE', () => {
    expect(checkWebhookUrlShape('https://hooks.example/x', false)).toBeUndefined();
    expect(checkWebhookUrlShape('http://hooks.example/x', false)).toMatch(/https/);
    expect(checkWebhookUrlShape('http://hooks.example/x', true)).toBeUndefined();
    expect(checkWebhookUrlShape('ftp://hooks.example/x', true)).toMatch(/https/);
    expect(checkWebhookUrlShape('https://a:b@hooks.example/x', false)).toMatch(/credentials/);
    expect(checkWebhookUrlShape('not-a-url', false)).toMatch(/absolute/);
    expect(checkWebhookUrlShape('not a url', false)).toMatch(/spaces/);
    // Spellings URL parsers read differently (src/url-spelling.ts) are refused, not stored.
    expect(checkWebhookUrlShape('https://hooks.example\\@evil.example/x', false)).toMatch(/backslash/);
    expect(checkWebhookUrlShape('https:///hooks.example/x', false)).toMatch(/two slashes/);
    expect(checkWebhookUrlShape('https://hooks.exa\tmple/x', false)).toMatch(/control/);
  });
});
