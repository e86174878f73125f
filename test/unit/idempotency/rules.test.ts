// The pure rules of an Idempotency-Key (docs/idempotency.md): which keys are valid, what "the same request" is,
// which failures a key remembers.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors';
import { isValidIdempotencyKey } from '../../../src/idempotency/key';
import { isRememberedError, replayOutcome, errorOutcome } from '../../../src/idempotency/outcome';
import { requestHash } from '../../../src/idempotency/request-hash';

describe('isValidIdempotencyKey', () => {
  it('accepts 1 to 255 printable ASCII characters', () => {
    for (const key of ['a', ' ', 'k'.repeat(255), crypto.randomUUID(), 'spaces and ~!@#$%^&*()'])
      expect(isValidIdempotencyKey(key)).toBe(true);
  });
  it('refuses empty, too long, control and non-ASCII characters', () => {
    for (const key of ['', 'k'.repeat(256), 'a\tb', 'a\nb', 'del\x7f', 'clé', 'emoji😀', '\0'])
      expect(isValidIdempotencyKey(key)).toBe(false);
  });
});

describe('requestHash', () => {
  it('ignores key order and undefined fields, and tells operations and values apart', async () => {
    const base = await requestHash('submit_site', { name: 'A', url: 'https://a.example', plan: 'basic' });
    expect(
      await requestHash('submit_site', { plan: 'basic', url: 'https://a.example', name: 'A', email: undefined }),
    ).toBe(base);
    expect(await requestHash('submit_site', { name: 'A', url: 'https://a.example', plan: 'featured' })).not.toBe(base);
    expect(await requestHash('other', { name: 'A', url: 'https://a.example', plan: 'basic' })).not.toBe(base);
  });
});

describe('which outcomes a key remembers', () => {
  it('remembers decisions (401-499 but 429), never 400, 429 or 5xx', () => {
    const remembered = (code: ConstructorParameters<typeof ServiceError>[0]) =>
      isRememberedError(new ServiceError(code, 'm'));
    expect(remembered('already_submitted')).toBe(true);
    expect(remembered('invalid_request')).toBe(false);
    expect(remembered('rate_limited')).toBe(false);
    expect(remembered('checkout_failed')).toBe(false);
    expect(remembered('service_unavailable')).toBe(false);
  });
  it('replays a stored error as the same ServiceError, site_id included', () => {
    const stored = errorOutcome(new ServiceError('already_submitted', 'taken', { site_id: 'abc' }));
    expect(() => replayOutcome(stored)).toThrow(
      expect.objectContaining({ code: 'already_submitted', message: 'taken', details: { site_id: 'abc' } }),
    );
    expect(replayOutcome({ result: { kind: 'queued' } })).toEqual({ kind: 'queued' });
  });
  it('replays the field a refusal is about, which the body does not carry, so a form places it again', () => {
    const stored = errorOutcome(new ServiceError('conflict', 'a chosen category was deleted', { field: 'categories' }));
    expect(JSON.parse(JSON.stringify(stored))).toEqual({
      error: { code: 'conflict', message: 'a chosen category was deleted', field: 'categories' },
    });
    expect(() => replayOutcome(JSON.parse(JSON.stringify(stored)))).toThrow(
      expect.objectContaining({ code: 'conflict', details: { field: 'categories' } }),
    );
    const unknown = errorOutcome(new ServiceError('invalid_request', 'm', { field: 'categories', values: ['x', 'y'] }));
    expect(() => replayOutcome(unknown)).toThrow(
      expect.objectContaining({ details: { field: 'categories', values: ['x', 'y'] } }),
    );
  });
});
