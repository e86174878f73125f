// The per-client bounds as a rule (src/stats/per-client-bounds.ts) and the visitor marks they are made of
// (src/stats/visitor-marks.ts): which gates an event passes, with what caps, and what a mark depends on.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { PREFIX_48_MULTIPLIER } from '../../../src/rate-limits/policies';
import { DAILY_BOUND, IMPRESSIONS_PER_PAGE, gatesOf, sourceKey } from '../../../src/stats/per-client-bounds';
import { visitorMark } from '../../../src/stats/visitor-marks';

const config = loadConfig({ DATA_DIR: '/nonexistent', ADMIN_TOKEN: 'unit-admin-token-0123456789abcdef' });
const day = '2026-05-01';
const v4 = { client: '203.0.113.7', page: 'http://tooldir.test/' };
const v6 = { client: '2001:db8:1:2::/64', page: 'http://tooldir.test/' };

describe('gatesOf', () => {
  it('a view, click or badge load passes its client daily bound, and for IPv6 the /48 bound after it', () => {
    for (const counter of ['views', 'clicks', 'badge_loads'] as const) {
      expect(gatesOf(config, day, v4, 'acme', counter)).toEqual([
        { mark: visitorMark(config, day, ['client', v4.client, 'acme', counter]), cap: 3 },
      ]);
      expect(gatesOf(config, day, v6, 'acme', counter)).toEqual([
        { mark: visitorMark(config, day, ['client', v6.client, 'acme', counter]), cap: 3 },
        {
          mark: visitorMark(config, day, ['network', '2001:db8:1::/48', 'acme', counter]),
          cap: 3 * PREFIX_48_MULTIPLIER,
        },
      ]);
    }
    expect(DAILY_BOUND).toEqual({ views: 3, clicks: 3, badge_loads: 3, impressions: 10 });
  });

  it('a card passes once per page first, then the daily bound of its client (and network)', () => {
    const gates = gatesOf(config, day, v6, 'acme', 'impressions_featured');
    expect(gates.map((g) => g.cap)).toEqual([
      IMPRESSIONS_PER_PAGE,
      DAILY_BOUND.impressions,
      DAILY_BOUND.impressions * PREFIX_48_MULTIPLIER,
    ]);
    expect(gates[0]!.mark).toBe(visitorMark(config, day, ['page', v6.client, v6.page, 'acme', 'impressions_featured']));
    // Another page is another first gate, the same later gates.
    const elsewhere = gatesOf(
      config,
      day,
      { ...v6, page: 'http://tooldir.test/categories/writing' },
      'acme',
      'impressions_featured',
    );
    expect(elsewhere[0]!.mark).not.toBe(gates[0]!.mark);
    expect(elsewhere.slice(1)).toEqual(gates.slice(1));
  });

  it('tells events apart before marking exactly as the gates do: the page only for cards', () => {
    expect(sourceKey(v4, 'views')).toBe(sourceKey({ ...v4, page: '/elsewhere' }, 'views'));
    expect(sourceKey(v4, 'impressions_standard')).not.toBe(
      sourceKey({ ...v4, page: '/elsewhere' }, 'impressions_standard'),
    );
  });
});

describe('visitorMark', () => {
  it('is 12 bytes of HMAC-SHA256 under the day key derived from ADMIN_TOKEN, and changes with the day, the secret and every part', () => {
    const parts = ['client', v4.client, 'acme', 'views'];
    const mark = visitorMark(config, day, parts);
    const dayKey = hmac(
      sha256,
      utf8ToBytes('unit-admin-token-0123456789abcdef'),
      utf8ToBytes(`tooldir-stats-visitor-marks-v1\n${day}`),
    );
    expect(mark).toBe(bytesToHex(hmac(sha256, dayKey, utf8ToBytes(parts.join('\n'))).subarray(0, 12)));
    expect(mark).toMatch(/^[0-9a-f]{24}$/);
    expect(visitorMark(config, day, parts)).toBe(mark); // the same all day
    expect(visitorMark(config, '2026-05-02', parts)).not.toBe(mark);
    const rotated = loadConfig({ DATA_DIR: '/nonexistent', ADMIN_TOKEN: 'another-admin-token-0123456789ab' });
    expect(visitorMark(rotated, day, parts)).not.toBe(mark);
    for (let i = 0; i < parts.length; i++) {
      const changed = parts.map((p, j) => (j === i ? `${p}x` : p));
      expect(visitorMark(config, day, changed), parts[i]).not.toBe(mark);
    }
  });
});
