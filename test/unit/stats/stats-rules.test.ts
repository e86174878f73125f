import { describe, expect, it } from 'vitest';
import { placementOf, tally, toDayCounts } from '../../../src/stats/counters';
import { addDays, daysInRange, isCalendarDay, mondayOf, utcDay } from '../../../src/stats/utc-day';
import { clickThroughRate, formatRate } from '../../../src/stats/click-through';
import { isCountedRequest } from '../../../src/stats/who-counts';
import { statsRange } from '../../../src/stats/site-stats';
import { outboundTarget } from '../../../src/stats/outbound-link';
import { eventsOf } from '../../../functions/middleware/count-listing-events';
import { BROWSER_UA } from '../../helpers/stats-harness';

describe('UTC days', () => {
  it('knows calendar days, moves across months and leap days, counts ranges and finds Mondays', () => {
    expect(['2028-02-29', '2026-12-31', '2026-01-01'].every(isCalendarDay)).toBe(true);
    expect(
      [
        '2026-02-29',
        '2026-02-30',
        '2026-13-01',
        '2026-1-1',
        '20260101',
        '',
        '2026-01-01T00:00:00Z',
        '0000-01-01',
        '0999-12-31',
      ].some(isCalendarDay),
    ).toBe(false);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(daysInRange('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysInRange('2026-01-01', '2026-12-31')).toBe(365);
    expect(mondayOf('2026-11-25')).toBe('2026-11-23'); // a Wednesday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // a Sunday
    expect(utcDay(new Date('2026-11-25T23:59:59.999Z'))).toBe('2026-11-25');
  });
});

describe('statsRange', () => {
  const today = '2026-11-25';
  it('defaults to the 30 days up to today and accepts up to 400 days', () => {
    expect(statsRange({}, today)).toEqual({ from: '2026-10-27', to: today });
    expect(statsRange({ to: '2026-01-30' }, today)).toEqual({ from: '2026-01-01', to: '2026-01-30' });
    expect(statsRange({ from: '2025-10-22', to: today }, today)).toEqual({ from: '2025-10-22', to: today });
  });
  it('refuses non-dates, reversed ranges and 401 days', () => {
    expect(() => statsRange({ from: '2026-02-30' }, today)).toThrow(/from must be a calendar date/);
    expect(() => statsRange({ from: '2026-11-26' }, today)).toThrow(/must not be after/);
    expect(() => statsRange({ from: '2025-10-21', to: today }, today)).toThrow(/401 days/);
  });
});

describe('counters', () => {
  it('tallies events per slug and counter, and reads engine rows back skipping what is no count', () => {
    expect(
      tally([
        { slug: 'a', counter: 'views' },
        { slug: 'a', counter: 'views' },
        { slug: 'b', counter: 'impressions_featured' },
      ]),
    ).toEqual([
      { slug: 'a', counter: 'views', n: 2 },
      { slug: 'b', counter: 'impressions_featured', n: 1 },
    ]);
    const counts = toDayCounts([
      { slug: 'a', counter: 'views', n: 2 },
      { slug: 'a', counter: 'clicks', n: 1 },
      { slug: 'a', counter: 'unknown_counter', n: 5 },
      { slug: 'b', counter: 'views', n: Number.NaN },
      { slug: 'c', counter: 'views', n: -1 },
      { slug: '', counter: 'views', n: 1 },
    ]);
    expect([...counts]).toEqual([['a', { views: 2, clicks: 1 }]]);
  });
  it('names a card by how it is shown: sponsored first, then featured', () => {
    expect(placementOf({ is_sponsor: true, is_feature: true })).toBe('sponsored');
    expect(placementOf({ is_sponsor: false, is_feature: true })).toBe('featured');
    expect(placementOf({ is_sponsor: false, is_feature: false })).toBe('standard');
  });
});

describe('what a response counts (eventsOf)', () => {
  it('maps path and status to one counter, and declared impressions to theirs', () => {
    expect(eventsOf('/tools/acme', 200, null)).toEqual([{ slug: 'acme', counter: 'views' }]);
    expect(eventsOf('/tools/acme', 304, null)).toEqual([{ slug: 'acme', counter: 'views' }]);
    expect(eventsOf('/go/acme', 302, null)).toEqual([{ slug: 'acme', counter: 'clicks' }]);
    expect(eventsOf('/badge/acme.svg', 200, null)).toEqual([{ slug: 'acme', counter: 'badge_loads' }]);
    expect(eventsOf('/', 200, 'a sponsored,b featured,c standard')).toEqual([
      { slug: 'a', counter: 'impressions_sponsored' },
      { slug: 'b', counter: 'impressions_featured' },
      { slug: 'c', counter: 'impressions_standard' },
    ]);
  });
  it('counts nothing for failures, odd paths and malformed declarations', () => {
    for (const [path, status] of [
      ['/tools/acme', 404],
      ['/tools/acme', 500],
      ['/go/acme', 404],
      ['/go/acme', 200],
      ['/badge/acme.png', 200],
      ['/badge/.svg', 200],
      ['/tools/acme/extra', 200],
      ['/tools/ACME', 200],
      ['/tools/', 200],
    ] as const) {
      expect(eventsOf(path, status, null), `${path} ${status}`).toEqual([]);
    }
    expect(eventsOf('/', 400, 'a standard')).toEqual([]);
    expect(eventsOf('/', 200, 'a bogus,B standard,, standard,a')).toEqual([]);
  });
});

describe('isCountedRequest', () => {
  const ask = (headers: Record<string, string>) => isCountedRequest((name) => headers[name]);
  it('counts browsers and nothing else', () => {
    expect(ask({ 'user-agent': BROWSER_UA })).toBe(true);
    expect(
      ask({
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      }),
    ).toBe(true);
    for (const agent of [
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'curl/8.5.0',
      'python-requests/2.31',
      'GPTBot/1.0',
      '',
    ]) {
      expect(ask({ 'user-agent': agent }), agent).toBe(false);
    }
    expect(ask({})).toBe(false);
    for (const headers of [
      { 'sec-purpose': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
      { purpose: 'prefetch' },
      { 'x-purpose': 'preview' },
      { 'x-moz': 'prefetch' },
    ] as Record<string, string>[]) {
      expect(ask({ 'user-agent': BROWSER_UA, ...headers }), JSON.stringify(headers)).toBe(false);
    }
  });
});

describe('click-through rate and the outbound target', () => {
  it('is clicks per appearance, null when never shown', () => {
    expect(clickThroughRate({ clicks: 6, impressions: 168, views: 42 })).toBe(0.0286);
    expect(clickThroughRate({ clicks: 0, impressions: 0, views: 0 })).toBeNull();
    expect(formatRate(0.0286)).toBe('2.9 %');
    expect(formatRate(null)).toBe('–');
  });
  it('adds ref=tooldir after the query and before the fragment', () => {
    expect(outboundTarget('https://a.example/x?y=1#z')).toBe('https://a.example/x?y=1&ref=tooldir#z');
    expect(outboundTarget('https://a.example/?REF=x')).toBe('https://a.example/?REF=x&ref=tooldir');
  });
});
