import { describe, expect, it } from 'vitest';
import { decideReviewChecks, isBlockedHost } from '../../../src/pipeline/review-checks';

const facts = {
  hasHtmlMetadata: true,
  finalUrl: 'https://tool.example/',
  liveDuplicateId: null,
  hosts: ['tool.example'],
  blockedDomains: [],
};

describe('decideReviewChecks', () => {
  it('passes a crawled, unique, allowed site', () => {
    const r = decideReviewChecks(facts);
    expect(r.passed).toBe(true);
    expect(r.checks.map((c) => [c.name, c.passed])).toEqual([
      ['answered_html', true],
      ['not_live_elsewhere', true],
      ['domain_allowed', true],
    ]);
  });
  it('fails each check on its own', () => {
    expect(decideReviewChecks({ ...facts, hasHtmlMetadata: false }).passed).toBe(false);
    const dup = decideReviewChecks({ ...facts, liveDuplicateId: 'abc' });
    expect(dup.passed).toBe(false);
    expect(dup.checks[1]!.detail).toContain('abc');
    const blocked = decideReviewChecks({
      ...facts,
      hosts: ['tool.example', 'www.casino.example'],
      blockedDomains: ['casino.example'],
    });
    expect(blocked.passed).toBe(false);
    expect(blocked.checks[2]!.detail).toBe('domain casino.example is blocked');
  });
});

describe('isBlockedHost', () => {
  it('matches the domain and its subdomains, not look-alikes', () => {
    const list = ['bad.example', '.evil.test'];
    expect(isBlockedHost('bad.example', list)).toBe('bad.example');
    expect(isBlockedHost('a.b.bad.example.', list)).toBe('bad.example');
    expect(isBlockedHost('x.evil.test', list)).toBe('.evil.test');
    expect(isBlockedHost('notbad.example', list)).toBeUndefined();
    expect(isBlockedHost('bad.example.com', list)).toBeUndefined();
    expect(isBlockedHost('BAD.EXAMPLE', list)).toBe('bad.example');
  });
});
