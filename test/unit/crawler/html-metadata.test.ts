import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractPageMetadata } from '../../../src/crawler/html-metadata';
import { decodeEntities } from '../../../src/crawler/html-entities';
import { propertyRuns } from '../../helpers/property-runs';

const FINAL = 'https://tool.example/app/index.html';

describe('extractPageMetadata', () => {
  it('reads a well-formed head', () => {
    const html = `<!doctype html><html lang="en-GB"><head>
      <meta charset="utf-8"><title>Acme AI</title>
      <meta name="description" content="Writes your emails.">
      <meta property="og:image" content="https://cdn.example/og.png">
      <link rel="icon" href="/static/icon.svg">
      <link rel="canonical" href="https://tool.example/">
      </head><body>hello</body></html>`;
    expect(extractPageMetadata(html, FINAL)).toEqual({
      title: 'Acme AI',
      description: 'Writes your emails.',
      imageUrl: 'https://cdn.example/og.png',
      iconUrl: 'https://tool.example/static/icon.svg',
      canonicalUrl: 'https://tool.example/',
      finalUrl: FINAL,
      language: 'en-GB',
    });
  });

  it('handles attribute order, single quotes, unquoted values, uppercase tags and attribute names', () => {
    const html = `<HTML LANG=fr><HEAD>
      <TITLE>Outil</TITLE>
      <META CONTENT='Une description' NAME='Description'>
      <meta content="https://cdn.example/a.png" property=OG:IMAGE />
      <LINK HREF=favicon.png REL="Shortcut Icon">
      </HEAD>`;
    const metadata = extractPageMetadata(html, FINAL);
    expect(metadata).toMatchObject({
      title: 'Outil',
      description: 'Une description',
      imageUrl: 'https://cdn.example/a.png',
      iconUrl: 'https://tool.example/app/favicon.png',
      language: 'fr',
    });
  });

  it('decodes entities in text and attributes, keeping "&copy=" query strings intact', () => {
    const html = `<title>Tom &amp; Jerry&#39;s &quot;AI&quot; &#x2014; caf&eacute; &unknown; &lt;b&gt;</title>
      <meta name="description" content="Fast &amp; safe&nbsp;&hellip;">
      <link rel="icon" href="/i.png?a=1&copy=2&amp;b=3">`;
    const metadata = extractPageMetadata(html, FINAL);
    expect(metadata.title).toBe('Tom & Jerry\'s "AI" — café &unknown; <b>');
    expect(metadata.description).toBe('Fast & safe …');
    expect(metadata.iconUrl).toBe('https://tool.example/i.png?a=1&copy=2&b=3');
  });

  it('keeps a quoted ">" inside an attribute value', () => {
    const html = `<meta name="description" content="a > b, and c<d"><title>T</title>`;
    expect(extractPageMetadata(html, FINAL)).toMatchObject({ description: 'a > b, and c<d', title: 'T' });
  });

  it('falls back to og:title, og:description and the default favicon when fields are missing', () => {
    const html = `<head><meta property="og:title" content=" OG title "><meta property="og:description" content="OG description"></head>`;
    expect(extractPageMetadata(html, FINAL)).toEqual({
      title: 'OG title',
      description: 'OG description',
      imageUrl: null,
      iconUrl: 'https://tool.example/favicon.ico',
      canonicalUrl: null,
      finalUrl: FINAL,
      language: null,
    });
  });

  it('returns nulls for an empty document', () => {
    expect(extractPageMetadata('', FINAL)).toMatchObject({
      title: null,
      description: null,
      imageUrl: null,
      iconUrl: 'https://tool.example/favicon.ico',
    });
  });

  it('prefers meta description over og:description, and <title> over og:title, whatever the order', () => {
    const html = `<meta property="og:description" content="og"><meta property="og:title" content="og title">
      <meta name="description" content="plain"><title>real title</title>`;
    expect(extractPageMetadata(html, FINAL)).toMatchObject({ title: 'real title', description: 'plain' });
  });

  it('uses og:title when <title> is blank', () => {
    expect(extractPageMetadata('<title>   </title><meta property="og:title" content="Fallback">', FINAL).title).toBe(
      'Fallback',
    );
  });

  it('prefers rel=icon over apple-touch-icon, and uses apple-touch-icon when alone', () => {
    const both = `<link rel="apple-touch-icon" href="/apple.png"><link rel="icon" type="image/png" href="/icon.png">`;
    expect(extractPageMetadata(both, FINAL).iconUrl).toBe('https://tool.example/icon.png');
    expect(extractPageMetadata('<link rel="apple-touch-icon-precomposed" href="apple.png">', FINAL).iconUrl).toBe(
      'https://tool.example/app/apple.png',
    );
  });

  it('ignores tags inside comments, scripts, styles and after <body>', () => {
    const html = `<head><!-- <title>commented</title> <meta name="description" content="commented"> -->
      <script>var s = '<meta name="description" content="scripted"><title>scripted</title>';</script>
      <style>/* <link rel=icon href=/styled.png> */</style>
      </head><body><title>body title</title><meta name="description" content="body"></body>`;
    expect(extractPageMetadata(html, FINAL)).toMatchObject({
      title: null,
      description: null,
      iconUrl: 'https://tool.example/favicon.ico',
    });
  });

  it('reads only the first <title> and does not parse markup inside it', () => {
    const html = `<title>First <b>bold</b></title><title>Second</title>`;
    expect(extractPageMetadata(html, FINAL).title).toBe('First <b>bold</b>');
  });

  it('resolves relative URLs against <base href> and keeps only http(s) URLs', () => {
    const html = `<base href="https://static.example/assets/">
      <link rel="icon" href="javascript:alert(1)"><link rel="icon" href="icon.png">
      <meta property="og:image" content="data:image/png;base64,AAAA">
      <link rel="canonical" href="ftp://tool.example/">`;
    expect(extractPageMetadata(html, FINAL)).toMatchObject({
      iconUrl: 'https://static.example/assets/icon.png',
      imageUrl: null,
      canonicalUrl: null,
    });
  });

  it('resolves relative canonical and protocol-relative image URLs against the final URL', () => {
    const html = `<link rel="canonical" href="../"><meta property="og:image" content="//cdn.example/i.png">`;
    expect(extractPageMetadata(html, FINAL)).toMatchObject({
      canonicalUrl: 'https://tool.example/',
      imageUrl: 'https://cdn.example/i.png',
    });
  });

  it('collapses whitespace and caps the title at 200 and the description at 500 characters', () => {
    const html = `<title>\n  A\t\tlong   ${'t'.repeat(400)} </title><meta name="description" content="${'d'.repeat(800)}">`;
    const metadata = extractPageMetadata(html, FINAL);
    expect(metadata.title?.startsWith('A long ')).toBe(true);
    expect(metadata.title).toHaveLength(200);
    expect(metadata.description).toHaveLength(500);
  });

  it('does not split a character made of two UTF-16 units when capping', () => {
    const metadata = extractPageMetadata(`<title>${'😀'.repeat(250)}</title>`, FINAL);
    expect(Array.from(metadata.title ?? '')).toHaveLength(200);
    expect(metadata.title).toBe('😀'.repeat(200));
  });

  it('drops a lang attribute that is not a language tag', () => {
    expect(extractPageMetadata('<html lang="en"><title>x</title>', FINAL).language).toBe('en');
    expect(extractPageMetadata('<html lang="<script>">', FINAL).language).toBeNull();
    expect(extractPageMetadata('<html lang="">', FINAL).language).toBeNull();
  });

  it('survives malformed markup without throwing', () => {
    for (const html of [
      '<',
      '<meta',
      '<meta name="description" content="unterminated',
      '<!--',
      '<title>open',
      '<script>',
      '< title>x</title>',
      '<<>>',
      '<a =b>',
    ]) {
      expect(() => extractPageMetadata(html, FINAL)).not.toThrow();
    }
    expect(extractPageMetadata('<title>open', FINAL).title).toBe('open');
  });
});

describe('decodeEntities', () => {
  it('decodes numeric references and replaces invalid code points', () => {
    expect(decodeEntities('&#65;&#x42;&#X43;&#0;&#xD800;&#x110000;')).toBe('ABC\ufffd\ufffd\ufffd');
  });

  it('decodes legacy names without a semicolon in text but not before = in attributes', () => {
    expect(decodeEntities('a &amp b')).toBe('a & b');
    expect(decodeEntities('x?a=1&lt=2', true)).toBe('x?a=1&lt=2');
    expect(decodeEntities('x?a=1&lt;=2', true)).toBe('x?a=1<=2');
  });
});

describe('extractPageMetadata on arbitrary input', () => {
  it('never throws and always respects the caps and the http(s)-only rule', () => {
    const markup = fc.array(
      fc.constantFrom(
        '<',
        '>',
        '"',
        "'",
        '=',
        ' ',
        '&amp;',
        '&#x41;',
        '<title>',
        '</title>',
        '<meta ',
        'name=description ',
        'content=',
        '<link ',
        'rel=icon ',
        'href=',
        'javascript:x',
        '/a.png',
        '<!--',
        '-->',
        '<script>',
        '</script>',
        'x',
        'é',
      ),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(markup, (parts) => {
        const metadata = extractPageMetadata(parts.join(''), FINAL);
        expect(Array.from(metadata.title ?? '').length).toBeLessThanOrEqual(200);
        expect(Array.from(metadata.description ?? '').length).toBeLessThanOrEqual(500);
        for (const url of [metadata.iconUrl, metadata.imageUrl, metadata.canonicalUrl]) {
          if (url !== null) expect(url).toMatch(/^https?:\/\//);
        }
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
