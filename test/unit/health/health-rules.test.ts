// The rules of what follows a check (src/health/health-rules.ts) and the words of a check (src/health/check-outcome.ts).
import { describe, expect, it } from 'vitest';
import { decideHealth, type HealthBefore } from '../../../src/health/health-rules';
import { failureOutcome } from '../../../src/health/check-outcome';
import { isDisallowedByRobots } from '../../../src/health/robots-rules';
import { publicHealth } from '../../../src/catalog/health-states';

const DAY = 86_400_000;
const start = new Date('2026-11-02T10:00:00Z');
const fresh: HealthBefore = {
  state: 'ok',
  lastOkAt: start,
  failingSince: null,
  notifiedState: 'ok',
  notifiedOn: null,
  hiddenOn: null,
  hidden: false,
  etag: null,
  lastModified: null,
  seen: { title: null, description: null, image: null },
};
const down = { state: 'failing' as const, reason: 'http_5xx' as const, httpStatus: 503, detail: '' };
const up = { state: 'ok' as const, etag: null, lastModified: null, seen: null };

/** Runs one check a day from `start` with `outcomes`, returning each day's decision. */
function days(outcomes: Parameters<typeof decideHealth>[1][], hideAfterDays = 14) {
  let before = fresh;
  return outcomes.map((outcome, day) => {
    const now = new Date(start.getTime() + day * DAY);
    const after = decideHealth(before, outcome, now, hideAfterDays);
    before = {
      ...before,
      ...after,
      state: after.state,
      hidden: after.hidden,
      hiddenOn: after.hiddenOn,
      notifiedState: after.notifiedState,
      notifiedOn: after.notifiedOn,
    };
    return after;
  });
}

describe('decideHealth', () => {
  it('tells on the third failing day, hides 14 days after the first, tells again when hidden, and once on recovery', () => {
    const result = days([...Array.from({ length: 16 }, () => down), up]);
    expect(result.map((r) => r.notice)).toEqual([
      null,
      null,
      'failing',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      'hidden',
      null,
      'ok',
    ]);
    expect(result.findIndex((r) => r.hidden)).toBe(14);
    expect(result.at(-1)).toMatchObject({ hidden: false, failingSince: null, state: 'ok' });
  });

  it('0 days hides at the first failing check; moved hides at once; robots.txt changes nothing', () => {
    expect(days([down], 0)[0]).toMatchObject({ hidden: true, notice: null });
    expect(days([{ state: 'moved', movedTo: 'parked.example', detail: '' }])[0]).toMatchObject({
      hidden: true,
      notice: 'moved',
      movedTo: 'parked.example',
    });
    const unchecked = days([down, { state: 'unchecked', reason: 'robots_disallowed', detail: '' }]);
    expect(unchecked[1]).toMatchObject({ state: 'unchecked', hidden: false, failingSince: start, notice: null });
  });

  it('a listing restored today is not hidden again before tomorrow', () => {
    const hidden = decideHealth(fresh, down, start, 0);
    const restored = decideHealth({ ...fresh, ...hidden }, up, new Date(start.getTime() + 3_600_000), 0);
    const again = decideHealth({ ...fresh, ...restored }, down, new Date(start.getTime() + 7_200_000), 0);
    expect([hidden.hidden, restored.hidden, again.hidden]).toEqual([true, false, false]);
    expect(decideHealth({ ...fresh, ...restored }, down, new Date(start.getTime() + DAY), 0).hidden).toBe(true);
  });
});

describe('the words', () => {
  it('names TLS, DNS and loops from the crawler failure', () => {
    expect(failureOutcome({ kind: 'network_error', detail: 'fetch failed: certificate has expired' })).toMatchObject({
      reason: 'tls_error',
    });
    expect(failureOutcome({ kind: 'dns_error', detail: '' })).toMatchObject({ reason: 'dns_gone' });
    expect(failureOutcome({ kind: 'too_many_redirects', detail: '' })).toMatchObject({ reason: 'redirect_loop' });
    expect(
      publicHealth({
        state: 'failing',
        reason_kind: 'http_5xx',
        http_status: 503,
        moved_to: null,
        last_checked_at: null,
        last_ok_at: null,
        failing_since: '2026-11-02T10:00:00Z',
      }),
    ).toEqual({
      state: 'failing',
      reason: 'HTTP 503',
      failing_since: '2026-11-02T10:00:00.000Z',
      last_checked_at: null,
      last_ok_at: null,
      moved_to: null,
    });
  });

  it('robots.txt: our group, else *, by longest match', () => {
    expect(isDisallowedByRobots('User-agent: *\nDisallow: /', 'https://a.example/', 'tooldir')).toBe(true);
    expect(
      isDisallowedByRobots(
        'User-agent: tooldir\nAllow: /\n\nUser-agent: *\nDisallow: /',
        'https://a.example/',
        'tooldir',
      ),
    ).toBe(false);
    expect(isDisallowedByRobots('User-agent: *\nDisallow: /private', 'https://a.example/', 'tooldir')).toBe(false);
  });
});
