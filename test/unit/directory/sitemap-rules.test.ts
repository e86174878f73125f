// The pure rules behind /sitemap.xml and /robots.txt (docs/seo.md): XML escaping, the key of a child's bounds,
// which child addresses exist, and the JSON-LD of a tool.
import { describe, expect, it } from 'vitest';
import { escapeXml, urlsetXml } from '../../../src/directory/sitemap-xml';
import { decodeListedKey, encodeListedKey } from '../../../src/directory/sitemap-keys';
import { sitemapIndexEntries, toolsChildBounds } from '../../../src/directory/sitemap-children';
import { softwareApplicationLd } from '../../../src/directory/software-application';
import type { PublicTool } from '../../../src/directory/live-tools';

const id = '0f1e2d3c-4b5a-4697-8877-66554433aabb';

describe('escapeXml', () => {
  it('writes markup characters as entities and drops what XML 1.0 cannot carry', () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;');
    expect(escapeXml('x\u0000\u0001\u000b\u001fy\tz\n')).toBe('xy\tz\n');
    expect(escapeXml('lone \ud800 high, lone \udc00 low, pair \ud83d\ude00, \ufffe\uffff')).toBe(
      'lone  high, lone  low, pair \ud83d\ude00, ',
    );
    expect(urlsetXml([{ loc: 'http://x.test/?a=1&b=<2>', lastmod: null }])).toContain(
      '<url><loc>http://x.test/?a=1&amp;b=&lt;2&gt;</loc></url>',
    );
  });
});

describe('listed keys', () => {
  it('round-trips a key and refuses anything else', () => {
    expect(decodeListedKey(encodeListedKey({ micros: '1795000000123456', id }))).toEqual({
      micros: '1795000000123456',
      id,
    });
    expect(decodeListedKey(`-5_${id}`)).toEqual({ micros: '-5', id });
    for (const bad of [
      undefined,
      '',
      `12345678901234567_${id}`,
      `1.5_${id}`,
      `1_${id.toUpperCase()}`,
      '1_not-a-uuid',
      `1_${id}x`,
      ` 1_${id}`,
      `1-${id}`,
    ]) {
      expect(decodeListedKey(bad), String(bad)).toBeUndefined();
    }
  });
});

describe('child sitemap addresses', () => {
  const key = (micros: string) => ({ micros, id });
  it('bounds each child by its own first key and the next one, the first child from the start, the last open', () => {
    const entries = sitemapIndexEntries('https://dir.example', {
      kind: 'index',
      home: '2030-01-01T00:00:00.000Z',
      chunks: [
        { first: key('1'), lastmod: 'a' },
        { first: key('2'), lastmod: 'b' },
        { first: key('3'), lastmod: 'c' },
      ],
    });
    expect(entries).toEqual([
      { loc: 'https://dir.example/sitemaps/pages.xml', lastmod: '2030-01-01T00:00:00.000Z' },
      { loc: `https://dir.example/sitemaps/tools-1.xml?to=2_${id}`, lastmod: 'a' },
      { loc: `https://dir.example/sitemaps/tools-2.xml?from=2_${id}&to=3_${id}`, lastmod: 'b' },
      { loc: `https://dir.example/sitemaps/tools-3.xml?from=3_${id}`, lastmod: 'c' },
    ]);
  });

  it('accepts only the addresses an index hands out', () => {
    expect(toolsChildBounds('tools-1.xml', {})).toEqual({ from: undefined, to: undefined });
    expect(toolsChildBounds('tools-2.xml', { from: `2_${id}`, to: `3_${id}` })).toEqual({
      from: key('2'),
      to: key('3'),
    });
    for (const [file, query] of [
      ['tools-2.xml', {}],
      ['tools-1.xml', { from: `2_${id}` }],
      ['tools-0.xml', {}],
      ['tools-01.xml', {}],
      ['tools-1.xml', { to: 'junk' }],
      ['tools-2.xml', { from: 'junk' }],
      ['tools-1.xml.gz', {}],
      ['pages-1.xml', {}],
      ['tools-1234567890.xml', {}],
    ] as const) {
      expect(toolsChildBounds(file, query), `${file} ${JSON.stringify(query)}`).toBeUndefined();
    }
  });
});

describe('softwareApplicationLd', () => {
  const tool: PublicTool = {
    site_id: id,
    slug: 'x',
    name: 'X',
    url: 'https://x.example/',
    description: null,
    image: null,
    icon: null,
    is_feature: false,
    is_sponsor: false,
    live_url: null,
    published_at: null,
    categories: [],
    title: null,
    hidden: false,
    mcp: null,
    health: {
      state: 'unchecked',
      last_checked_at: null,
      last_ok_at: null,
      failing_since: null,
      reason: 'not checked yet',
      moved_to: null,
    },
  };
  it('leaves out what is unknown and never links a website that is not http(s)', () => {
    expect(softwareApplicationLd(tool, 'https://dir.example')).toEqual({
      '@type': 'SoftwareApplication',
      name: 'X',
      url: 'https://x.example/',
    });
    expect(softwareApplicationLd({ ...tool, url: 'javascript:alert(1)' }, 'https://dir.example')).toEqual({
      '@type': 'SoftwareApplication',
      name: 'X',
    });
    expect(
      softwareApplicationLd(
        { ...tool, image: '/media/a.png', description: 'D', categories: [{ slug: 'code', name: 'Code' }] },
        'https://dir.example',
      ),
    ).toEqual({
      '@type': 'SoftwareApplication',
      name: 'X',
      url: 'https://x.example/',
      description: 'D',
      image: 'https://dir.example/media/a.png',
      applicationCategory: 'Code',
    });
  });
  it('dates the page by the last check that found the site answering, else by when it went live', () => {
    const checked = {
      ...tool.health,
      state: 'ok' as const,
      last_checked_at: '2026-11-21T21:05:00.000Z',
      last_ok_at: '2026-11-21T21:05:00.000Z',
      reason: null,
    };
    expect(softwareApplicationLd({ ...tool, health: checked }, 'https://dir.example').dateModified).toBe(
      '2026-11-21T21:05:00.000Z',
    );
    expect(
      softwareApplicationLd({ ...tool, published_at: '2026-11-01T00:00:00.000Z' }, 'https://dir.example').dateModified,
    ).toBe('2026-11-01T00:00:00.000Z');
  });
});
