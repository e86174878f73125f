// How thrown errors and refused targets become failure kinds; the detail keeps everything for operators.
import { describe, expect, it } from 'vitest';
import { BlockedAddressError, CrawlDeadlineError, describeFailure } from '../../../src/crawler/crawl-failures';
import { checkTarget } from '../../../src/crawler/index';
import { PUBLIC_IPV4, tableResolver } from './network-doubles';

const running = () => new AbortController().signal;
const fetchFailed = (cause: Error) => new TypeError('fetch failed', { cause });
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('describeFailure', () => {
  it('reports the crawl deadline as timeout and a caller abort as network_error', () => {
    const deadline = new AbortController();
    deadline.abort(new CrawlDeadlineError('the crawl took longer than 10000 ms'));
    expect(describeFailure(new Error('aborted'), deadline.signal)).toEqual({
      kind: 'timeout',
      detail: 'the crawl took longer than 10000 ms',
    });
    const caller = new AbortController();
    caller.abort();
    expect(describeFailure(new Error('aborted'), caller.signal)).toEqual({
      kind: 'network_error',
      detail: 'the crawl was aborted',
    });
  });

  it.each([
    [
      fetchFailed(new BlockedAddressError('db.internal resolves to a refused address: 10.0.0.9 is in a private range')),
      'blocked_address',
      '10.0.0.9',
    ],
    [fetchFailed(withCode('getaddrinfo ENOTFOUND db.internal', 'ENOTFOUND')), 'dns_error', 'ENOTFOUND db.internal'],
    [fetchFailed(withCode('getaddrinfo EAI_AGAIN db.internal', 'EAI_AGAIN')), 'dns_error', 'EAI_AGAIN'],
    [
      fetchFailed(withCode('Connect Timeout Error (attempted address: 10.0.0.7:443)', 'UND_ERR_CONNECT_TIMEOUT')),
      'timeout',
      '10.0.0.7:443',
    ],
    [
      fetchFailed(withCode('connect ECONNREFUSED 10.0.0.7:443', 'ECONNREFUSED')),
      'network_error',
      'ECONNREFUSED 10.0.0.7:443',
    ],
    [new Error('socket hang up'), 'network_error', 'socket hang up'],
    ['a thrown string', 'network_error', 'a thrown string'],
  ] as const)('classifies %s as %s, keeping the detail', (error, kind, inDetail) => {
    const failure = describeFailure(error, running());
    expect(failure.kind).toBe(kind);
    expect(failure.detail).toContain(inDetail);
  });
});

describe('checkTarget kinds', () => {
  it('judges a refused address before a refused port', async () => {
    const { resolver, asked } = tableResolver({ 'public.test': [PUBLIC_IPV4] });
    expect(await checkTarget('http://127.0.0.1:8080/', { resolver })).toMatchObject({
      ok: false,
      error: { kind: 'blocked_address' },
    });
    expect(await checkTarget('http://localhost:8080/', { resolver })).toMatchObject({
      ok: false,
      error: { kind: 'blocked_address' },
    });
    expect(await checkTarget(`http://${PUBLIC_IPV4}:8080/`, { resolver })).toMatchObject({
      ok: false,
      error: { kind: 'blocked_port' },
    });
    expect(await checkTarget('http://public.test:8080/', { resolver })).toMatchObject({
      ok: false,
      error: { kind: 'blocked_port' },
    });
    expect(asked).toEqual([]); // a name on a refused port is never looked up
  });

  it('reports a resolver failure as dns_error, with the resolver text kept for operators', async () => {
    const resolver = async () => {
      throw withCode('queryA ESERVFAIL gone.test (ns1.ops.internal)', 'ESERVFAIL');
    };
    const decision = await checkTarget('http://gone.test/', { resolver });
    expect(decision).toMatchObject({ ok: false, error: { kind: 'dns_error' } });
    if (!decision.ok) expect(decision.error.detail).toContain('ns1.ops.internal');
  });
});
