// The one table from crawl failure kind to the submitter's words (src/crawler/crawl-error-messages.ts).
import { describe, expect, it } from 'vitest';
import { crawlFailureKinds } from '../../../src/crawler/index';
import { publicCrawlError } from '../../../src/crawler/crawl-error-messages';

describe('publicCrawlError', () => {
  it('gives every kind its own words, naming no address, host or exception', () => {
    const messages = crawlFailureKinds.map((kind) => publicCrawlError(kind, 500));
    expect(messages.map((m) => m.code)).toEqual([...crawlFailureKinds]);
    expect(new Set(messages.map((m) => m.message)).size).toBe(crawlFailureKinds.length);
    for (const { message } of messages) {
      expect(message).toMatch(/^[a-z][a-zA-Z0-9 ,]+$/); // a phrase: no colon, no dotted address, no quotes
    }
  });

  it('says what the brief names for the common kinds', () => {
    expect(publicCrawlError('blocked_address').message).toBe('the address is not public');
    expect(publicCrawlError('timeout').message).toBe('timed out');
    expect(publicCrawlError('http_error', 500).message).toBe('the site answered HTTP 500');
    expect(publicCrawlError('not_html').message).toBe('not an HTML page');
    expect(publicCrawlError('dns_error').message).toBe('the host name could not be resolved');
    expect(publicCrawlError('too_large').message).toBe('the page is larger than 2 MiB');
    expect(publicCrawlError('too_many_redirects').message).toBe('more than 5 redirects');
  });

  it('puts only a real HTTP status into the words, and only for http_error', () => {
    expect(publicCrawlError('http_error', '503')).toEqual({
      code: 'http_error',
      message: 'the site answered HTTP 503',
    });
    for (const odd of [null, undefined, 0, 99, 600, 500.5, 'x', '10.0.0.1']) {
      expect(publicCrawlError('http_error', odd as never).message, String(odd)).toBe(
        'the site answered with an HTTP error',
      );
    }
    expect(publicCrawlError('not_html', 200).message).toBe('not an HTML page');
  });

  it('reads an unknown or missing kind as our own failure, never as a crash', () => {
    expect(publicCrawlError(null)).toEqual({ code: 'crawler_error', message: 'the crawl failed on our side' });
    expect(publicCrawlError('10.0.0.1 is in a private range')).toEqual({
      code: 'crawler_error',
      message: 'the crawl failed on our side',
    });
  });
});
