// The SSRF corpus: every target here must be refused before any request, with allowPrivate off.
// Nothing in this file opens a socket: the resolver is a table and the fetch fails the test if called.
import { describe, expect, it } from 'vitest';
import { checkTarget, crawlPage, type CrawlFailureKind } from '../../../src/crawler/index';
import { forbiddenFetch, PUBLIC_IPV4, tableResolver } from './network-doubles';

const RESOLVER_TABLE = {
  'rebind.test': ['127.0.0.1'],
  'mixed.test': [PUBLIC_IPV4, '10.0.0.1'],
  'mixed-v6.test': ['2606:2800:220:1:248:1893:25c8:1946', '::1'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'nothing.test': [],
  'garbage.test': ['not-an-address'],
  'octal.test': ['0177.0.0.1'],
  'decimal.test': ['2130706433'],
  'example.com': [PUBLIC_IPV4],
};

const CORPUS: Array<[target: string, kind: CrawlFailureKind]> = [
  // loopback in every IPv4 spelling
  ['http://127.0.0.1/', 'blocked_address'],
  ['http://2130706433/', 'blocked_address'],
  ['http://0177.0.0.1/', 'blocked_address'],
  ['http://00000177.0.0.1/', 'blocked_address'],
  ['http://0x7f.1/', 'blocked_address'],
  ['http://0x7f000001/', 'blocked_address'],
  ['http://127.1/', 'blocked_address'],
  ['http://127.0.0.1./', 'blocked_address'],
  ['http://%31%32%37.0.0.1/', 'blocked_address'],
  ['http://127.255.255.254/', 'blocked_address'],
  // loopback names
  ['http://localhost/', 'blocked_address'],
  ['http://localhost./', 'blocked_address'],
  ['http://LOCALHOST/', 'blocked_address'],
  ['http://app.localhost/', 'blocked_address'],
  // IPv6 loopback and IPv4-in-IPv6 forms
  ['http://[::1]/', 'blocked_address'],
  ['http://[0:0:0:0:0:0:0:1]/', 'blocked_address'],
  ['http://[::ffff:127.0.0.1]/', 'blocked_address'],
  ['http://[::ffff:7f00:1]/', 'blocked_address'],
  ['http://[::127.0.0.1]/', 'blocked_address'],
  ['http://[::ffff:0:7f00:1]/', 'blocked_address'],
  ['http://[2002:7f00:1::]/', 'blocked_address'],
  ['http://[64:ff9b::7f00:1]/', 'blocked_address'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'blocked_address'],
  ['http://[64:ff9b:1::a00:1]/', 'blocked_address'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'blocked_address'],
  // cloud metadata
  ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
  ['https://169.254.169.254/', 'blocked_address'],
  ['http://[::ffff:169.254.169.254]/', 'blocked_address'],
  ['http://100.100.100.200/', 'blocked_address'],
  ['http://[fd00:ec2::254]/', 'blocked_address'],
  ['http://169.254.170.2/', 'blocked_address'],
  // private, CGNAT, link-local, unique-local, site-local
  ['http://100.64.0.1/', 'blocked_address'],
  ['http://10.0.0.1/', 'blocked_address'],
  ['http://172.16.0.1/', 'blocked_address'],
  ['http://172.31.255.255/', 'blocked_address'],
  ['http://192.168.1.1/', 'blocked_address'],
  ['http://[::ffff:10.0.0.1]/', 'blocked_address'],
  ['http://169.254.1.1/', 'blocked_address'],
  ['http://[fd00::1]/', 'blocked_address'],
  ['http://[fc00::1]/', 'blocked_address'],
  ['http://[fe80::1]/', 'blocked_address'],
  ['http://[fec0::1]/', 'blocked_address'],
  // unspecified, multicast, broadcast, reserved
  ['http://0.0.0.0/', 'blocked_address'],
  ['http://0/', 'blocked_address'],
  ['http://[::]/', 'blocked_address'],
  ['http://224.0.0.1/', 'blocked_address'],
  ['http://239.255.255.250/', 'blocked_address'],
  ['http://[ff02::1]/', 'blocked_address'],
  ['http://255.255.255.255/', 'blocked_address'],
  ['http://240.0.0.1/', 'blocked_address'],
  ['http://198.18.0.1/', 'blocked_address'],
  ['http://192.0.2.1/', 'blocked_address'],
  ['http://[2001:db8::1]/', 'blocked_address'],
  ['http://[100::1]/', 'blocked_address'],
  // names whose resolved addresses are refused (every address counts)
  ['http://rebind.test/', 'blocked_address'],
  ['http://mixed.test/', 'blocked_address'],
  ['http://mixed-v6.test/', 'blocked_address'],
  ['http://metadata.test/', 'blocked_address'],
  ['http://mapped.test/', 'blocked_address'],
  ['http://garbage.test/', 'blocked_address'],
  ['http://octal.test/', 'blocked_address'],
  ['http://decimal.test/', 'blocked_address'],
  // ports
  ['http://example.com:8080/', 'blocked_port'],
  ['https://example.com:22/', 'blocked_port'],
  // schemes, credentials, malformed
  ['file:///etc/passwd', 'bad_url'],
  ['data:text/html,hi', 'bad_url'],
  ['ftp://example.com/', 'bad_url'],
  ['gopher://127.0.0.1:6379/_INFO', 'bad_url'],
  ['javascript:alert(1)', 'bad_url'],
  ['ws://example.com/', 'bad_url'],
  ['http://user:pass@example.com/', 'bad_url'],
  ['http://user@example.com/', 'bad_url'],
  ['not a url', 'bad_url'],
  ['http://1.2.3.4.5/', 'bad_url'],
];

describe('SSRF corpus (allowPrivate off)', () => {
  it('holds at least 30 targets', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CORPUS)('checkTarget refuses %s with %s', async (target, kind) => {
    const { resolver } = tableResolver(RESOLVER_TABLE);
    const decision = await checkTarget(target, { resolver, allowPrivate: false });
    expect(decision).toMatchObject({ ok: false, error: { kind } });
  });

  it.each(CORPUS)('crawlPage refuses %s with %s and never fetches', async (target, kind) => {
    const { resolver, asked } = tableResolver(RESOLVER_TABLE);
    const guardedFetch = forbiddenFetch();
    const result = await crawlPage(target, { fetch: guardedFetch.fetch, resolver });
    expect(result).toMatchObject({ ok: false, error: { kind } });
    expect(guardedFetch.calls).toEqual([]);
    // IP literals and refused shapes never reach the resolver; names reach only the table.
    for (const name of asked) expect(Object.keys(RESOLVER_TABLE)).toContain(name);
  });

  it('never asks the resolver about IP literals, ports or schemes it already refused', async () => {
    const { resolver, asked } = tableResolver(RESOLVER_TABLE);
    for (const target of [
      'http://2130706433/',
      'http://[::1]/',
      'http://example.com:8080/',
      'file:///etc/passwd',
      'http://localhost./',
    ]) {
      await checkTarget(target, { resolver, allowPrivate: false });
    }
    expect(asked).toEqual([]);
  });

  it('names the refused address in the detail, for operators', async () => {
    const { resolver } = tableResolver(RESOLVER_TABLE);
    const decision = await checkTarget('http://mixed.test/', { resolver, allowPrivate: false });
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.error.detail).toContain('10.0.0.1');
  });

  it('reports an unresolvable name or one with no addresses as a DNS failure', async () => {
    const { resolver } = tableResolver(RESOLVER_TABLE);
    expect(await checkTarget('http://unknown.test/', { resolver })).toMatchObject({
      ok: false,
      error: { kind: 'dns_error' },
    });
    expect(await checkTarget('http://nothing.test/', { resolver })).toMatchObject({
      ok: false,
      error: { kind: 'dns_error' },
    });
  });
});

describe('targets that pass', () => {
  it.each([
    ['http://example.com/', [PUBLIC_IPV4]],
    ['https://example.com:443/path?q=1', [PUBLIC_IPV4]],
    ['http://example.com:80/', [PUBLIC_IPV4]],
    ['http://EXAMPLE.com./', [PUBLIC_IPV4]],
    ['http://93.184.216.34/', [PUBLIC_IPV4]],
    ['https://[2606:4700::1111]/', ['2606:4700::1111']],
    ['http://[::ffff:93.184.216.34]/', ['::ffff:5db8:d822']], // WHATWG URL normalises the spelling
    ['http://[64:ff9b::5db8:d822]/', ['64:ff9b::5db8:d822']],
  ])('checkTarget accepts %s', async (target, addresses) => {
    const { resolver } = tableResolver(RESOLVER_TABLE);
    const decision = await checkTarget(target, { resolver, allowPrivate: false });
    expect(decision).toMatchObject({ ok: true, addresses });
  });
});

describe('allowPrivate (CRAWL_ALLOW_PRIVATE=true)', () => {
  it.each([
    'http://127.0.0.1:8080/',
    'http://localhost:3000/',
    'http://10.0.0.1/',
    'http://192.168.1.1:8443/',
    'http://[::1]:9000/',
    'http://[fd00::1]/',
    'http://rebind.test/',
  ])('accepts loopback and private target %s on any port', async (target) => {
    const { resolver } = tableResolver({ ...RESOLVER_TABLE, localhost: ['127.0.0.1', '::1'] });
    expect(await checkTarget(target, { resolver, allowPrivate: true })).toMatchObject({ ok: true });
  });

  it.each([
    ['http://169.254.169.254/', 'blocked_address'],
    ['http://100.100.100.200/', 'blocked_address'],
    ['http://[fd00:ec2::254]/', 'blocked_address'],
    ['http://metadata.test/', 'blocked_address'],
    ['http://[fe80::1]/', 'blocked_address'],
    ['http://224.0.0.1/', 'blocked_address'],
    ['http://255.255.255.255/', 'blocked_address'],
    ['http://0.0.0.0/', 'blocked_address'],
    ['http://[2002:7f00:1::]/', 'blocked_address'],
    ['file:///etc/passwd', 'bad_url'],
    ['http://user:pass@127.0.0.1/', 'bad_url'],
  ] as const)('still refuses %s', async (target, kind) => {
    const { resolver } = tableResolver(RESOLVER_TABLE);
    const guardedFetch = forbiddenFetch();
    expect(await crawlPage(target, { fetch: guardedFetch.fetch, resolver, allowPrivate: true })).toMatchObject({
      ok: false,
      error: { kind },
    });
    expect(guardedFetch.calls).toEqual([]);
  });
});
