import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeForHttpStatus } from '../../../src/cli/exit-codes';
import { renderList } from '../../../src/cli/list';
import { describeReason, formatTable } from '../../../src/cli/output';
import { Captured, siteRecord } from './fake-context';
import { createProgress } from '../../../src/cli/progress';
import type { SiteRecord } from '../../../src/cli/api-types';

describe('formatTable', () => {
  it('aligns columns under upper-case headers without trailing spaces', () => {
    const table = formatTable(
      ['status', 'name'],
      [
        ['live', 'Acme'],
        ['pending_review', 'B'],
      ],
    );
    expect(table).toBe('STATUS          NAME\nlive            Acme\npending_review  B');
  });
});

describe('renderList', () => {
  const site = siteRecord('live') as unknown as SiteRecord;

  it('prints the table and the range shown', () => {
    const lines = renderList({ sites: [site, site], total: 7, limit: 2, offset: 2 })
      .join('\n')
      .split('\n');
    expect(lines[0]).toMatch(/^STATUS +NAME +URL +SUBMITTED +SITE_ID$/);
    expect(lines[1]).toContain('Acme AI');
    // Status words and the website's time format, not the API's codes and database timestamp.
    expect(lines[1]).toMatch(/^live +Acme AI +https:\/\/acme\.example\/ +2026-11-21 22:00 UTC +0b6f9a52-/);
    const other = renderList({
      sites: [
        siteRecord('pending_review') as unknown as SiteRecord,
        siteRecord('crawl_failed') as unknown as SiteRecord,
      ],
      total: 2,
      limit: 2,
      offset: 0,
    });
    expect(other.join('\n')).toMatch(/\ncrawled, waiting for editorial review +Acme AI[^\n]*\ncrawl failed +Acme AI/);
    expect(other.join('\n')).not.toMatch(/pending_review|crawl_failed|\+00/);
    expect(lines[2]).toContain(site.site_id);
    expect(lines.at(-1)).toBe('showing 3–4 of 7');
  });

  it('says so when there is nothing to show', () => {
    expect(renderList({ sites: [], total: 0, limit: 100, offset: 0 })[0]).toMatch(/^No submissions\./);
  });
});

describe('exit codes', () => {
  it('maps API statuses to the documented codes', () => {
    expect([200, 201, 400, 401, 402, 404, 409, 429, 500].map((status) => exitCodeForHttpStatus(status))).toEqual([
      ExitCode.ok,
      ExitCode.ok,
      ExitCode.usage,
      ExitCode.error,
      ExitCode.paymentRequired,
      ExitCode.error,
      ExitCode.alreadySubmitted,
      ExitCode.rateLimited,
      ExitCode.error,
    ]);
  });

  it('tells a 409 already_submitted from a 409 invalid_state (a retry of a submission that did not fail)', () => {
    expect(exitCodeForHttpStatus(409, 'already_submitted')).toBe(ExitCode.alreadySubmitted);
    expect(exitCodeForHttpStatus(409, 'invalid_state')).toBe(ExitCode.error);
  });
});

describe('describeReason', () => {
  it('explains each 402 reason in words', () => {
    expect(describeReason('no_membership')).toMatch(/^Your account has no active membership/);
    expect(describeReason('quota_exceeded')).toMatch(/quota/);
    expect(describeReason('plan_not_covered', 'featured')).toMatch(/does not cover the featured plan/);
    expect(describeReason('payment_pending')).toMatch(/fresh checkout link/);
  });
});

describe('createProgress', () => {
  it('keeps the spinner line within the terminal width', () => {
    const out = Object.assign(new Captured(true), { columns: 20 });
    const progress = createProgress(out, false, () => new Date(0));
    progress.show('crawled, waiting for editorial review');
    expect(out.text).toBe('\r\u001b[2K⠋ crawled, waiting…');
  });

  it('is silent under --json', () => {
    const out = new Captured(true);
    const progress = createProgress(out, true, () => new Date(0));
    progress.show('queued');
    progress.tick();
    progress.stop();
    expect(out.text).toBe('');
  });
});
