// The pure rules of a submission's progress (docs/submission-progress.md): which history notes a submitter
// may read, and the words `tooldir status` and /account use for the queue and the history.
import { describe, expect, it } from 'vitest';
import { crawlFailureKinds } from '../../../src/catalog/crawl-failure-kinds';
import { publicCrawlError } from '../../../src/crawler/crawl-error-messages';
import { isPublicCrawlMessage, submitterReason } from '../../../src/submissions/history-reasons';
import { describeQueue, describeStatus, describeStep, ordinal } from '../../../src/submissions/progress-words';
import { describeStatus as describeStatusForCli } from '../../../src/cli/output';
import { siteStatuses } from '../../../src/catalog/site-statuses';
import { formatTime } from '../../../src/display-time';
import { toHistory } from '../../../src/submissions/progress';

const step = (status: string, from: string | null, note: string | null) => ({ status, from, note });

describe('submitterReason', () => {
  it("shows an editor's rejection reason (also on a takedown), not a bare rejection", () => {
    expect(submitterReason(step('rejected', 'pending_review', 'rejected by an editor: Not an AI tool'))).toBe(
      'Not an AI tool',
    );
    expect(submitterReason(step('rejected', 'live', 'rejected by an editor: Broken links'))).toBe('Broken links');
    expect(submitterReason(step('rejected', 'pending_review', 'rejected by an editor'))).toBeUndefined();
    expect(submitterReason(step('rejected', 'pending_review', 'Not an AI tool'))).toBeUndefined();
  });

  it('shows the public message of a failed attempt, on the retry and on crawl_failed', () => {
    expect(submitterReason(step('queued', 'crawling', 'attempt 1 of 3 failed: timed out'))).toBe('timed out');
    expect(submitterReason(step('crawl_failed', 'crawling', 'attempt 3 of 3 failed: the site answered HTTP 503'))).toBe(
      'the site answered HTTP 503',
    );
    expect(submitterReason(step('crawl_failed', 'crawling', 'sweep: crawl attempt 3 did not finish'))).toBe(
      'the crawl did not finish',
    );
    expect(submitterReason(step('queued', 'crawling', 'sweep: crawl attempt 1 did not finish'))).toBe(
      'the crawl did not finish',
    );
  });

  it('never passes operator text: addresses, exception text, crawled URLs, approval remarks, attempt counters', () => {
    expect(
      submitterReason(step('crawl_failed', 'crawling', 'attempt 1 of 1 failed: connect ECONNREFUSED 10.0.0.5:443')),
    ).toBeUndefined();
    expect(
      submitterReason(step('queued', 'crawling', 'attempt 1 of 3 failed: the site answered HTTP 5000')),
    ).toBeUndefined();
    expect(submitterReason(step('pending_review', 'crawling', 'crawled: https://internal.example/'))).toBeUndefined();
    expect(
      submitterReason(step('live', 'pending_review', 'approved by an editor: our internal remark')),
    ).toBeUndefined();
    expect(submitterReason(step('crawling', 'queued', 'crawl attempt 2'))).toBeUndefined();
    expect(submitterReason(step('queued', null, 'paid'))).toBeUndefined();
    // A failure message written on a step that is not a crawl outcome is not shown either.
    expect(submitterReason(step('pending_review', 'crawling', 'attempt 1 of 3 failed: timed out'))).toBeUndefined();
  });

  it('knows every message crawl-error-messages.ts can produce', () => {
    for (const kind of crawlFailureKinds)
      expect(isPublicCrawlMessage(publicCrawlError(kind, 404).message), kind).toBe(true);
    expect(isPublicCrawlMessage('the site answered HTTP 10.0.0.1')).toBe(false);
  });
});

describe('toHistory', () => {
  it('starts a paid submission at pending_payment (its submitted_at) and drops the raw notes', () => {
    const rows = [
      { status: 'queued', from: null, note: 'paid', at: '2026-11-21T21:10:00.000Z' },
      { status: 'crawling', from: 'queued', note: 'crawl attempt 1', at: '2026-11-21T21:11:00.000Z' },
      {
        status: 'crawl_failed',
        from: 'crawling',
        note: 'attempt 1 of 1 failed: timed out',
        at: '2026-11-21T21:11:10.000Z',
      },
    ];
    const paid = toHistory({
      via: 'payment',
      submitted_iso: '2026-11-21T21:05:03.000Z',
      history: JSON.stringify(rows),
      queue: null,
    });
    expect(paid).toEqual([
      { status: 'pending_payment', at: '2026-11-21T21:05:03.000Z' },
      { status: 'queued', at: '2026-11-21T21:10:00.000Z' },
      { status: 'crawling', at: '2026-11-21T21:11:00.000Z' },
      { status: 'crawl_failed', at: '2026-11-21T21:11:10.000Z', reason: 'timed out' },
    ]);
    expect(
      toHistory({ via: 'membership', submitted_iso: '2026-11-21T21:05:03.000Z', history: rows, queue: null })[0]
        ?.status,
    ).toBe('queued');
  });
});

describe('progress words', () => {
  it('ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
      '112th',
    ]);
  });

  it("one time format, the website's, for every time and on every day", () => {
    expect(formatTime('2026-11-21T14:05:09.000Z')).toBe('2026-11-21 14:05 UTC');
    expect(formatTime('2026-11-21 14:05:09+00')).toBe('2026-11-21 14:05 UTC');
    expect(formatTime(new Date('2026-11-22T00:20:00Z'))).toBe('2026-11-22 00:20 UTC');
    expect(formatTime('not a time')).toBe('not a time');
    expect(formatTime(null)).toBe('–');
  });

  it('the queue and a history step in words', () => {
    expect(describeQueue({ stage: 'crawl', position: 3, estimated_at: '2026-11-21T14:05:00.000Z' })).toBe(
      '3rd in line for crawling, expected around 2026-11-21 14:05 UTC',
    );
    expect(describeQueue({ stage: 'review', position: 1 })).toBe('1st in line for review');
    expect(describeStep({ status: 'rejected', at: '2026-11-20T09:30:00.000Z', reason: 'Not an AI tool' })).toBe(
      '2026-11-20 09:30 UTC  rejected by review: Not an AI tool',
    );
  });
});

describe('describeStatus', () => {
  it('has words for every status (pending_payment too), the same for the pages and the CLI', () => {
    const statuses = [...siteStatuses, 'pending_payment'];
    for (const status of statuses) {
      expect(describeStatus(status), status).toMatch(/^[a-z][a-z ,]+$/);
    }
    expect(new Set(statuses.map(describeStatus)).size).toBe(statuses.length);
    expect(describeStatus('queued')).toBe('queued for crawling');
    expect(describeStatusForCli('queued')).toBe('queued for crawling');
    // The CLI adds its own next step to a failed crawl; the pages show a Retry button instead.
    expect(describeStatus('crawl_failed')).toBe('crawl failed');
    expect(describeStatusForCli('crawl_failed')).toBe('crawl failed (fix the site, then `tooldir retry`)');
  });

  it('shows an unknown value as it is, and never an inherited property', () => {
    expect(describeStatus('paused')).toBe('paused');
    expect(describeStatus('constructor')).toBe('constructor');
    expect(describeStatus('__proto__')).toBe('__proto__');
  });
});
