// The pure rules of own media: which bytes are an image we keep, what a media name is, the placeholder.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isMediaName, mediaNameOf, mediaPath, mediaUrl } from '../../../src/media/media-name';
import { placeholderColour, placeholderImage, placeholderInitial } from '../../../src/media/placeholder';
import { sniffImage } from '../../../src/media/sniff-image';
import { gifBytes, HTML, icoBytes, jpegBytes, pngBytes, SVG, webpBytes } from '../../helpers/image-bytes';

const text = (value: string) => new TextEncoder().encode(value);
const HASH = 'c'.repeat(64);

describe('sniffImage', () => {
  it.each([
    ['png', pngBytes()],
    ['jpg', jpegBytes()],
    ['gif', gifBytes()],
    ['webp', webpBytes()],
    ['ico', icoBytes()],
  ])('recognises %s from its bytes', (extension, bytes) => {
    expect(sniffImage(bytes)).toEqual({ ok: true, extension });
  });

  it.each([
    ['an SVG with a prolog and a comment', text(SVG)],
    ['a bare SVG after a BOM', text('\ufeff  <svg viewBox="0 0 1 1"></svg>')],
  ])('refuses %s as svg', (_what, bytes) => {
    expect(sniffImage(bytes)).toEqual({ ok: false, reason: 'svg' });
  });

  it.each([
    ['HTML', text(HTML)],
    ['empty', new Uint8Array(0)],
    ['a PNG signature without IHDR', pngBytes().slice(0, 8)],
    ['text starting with RIFF but not WebP', text('RIFF....WAVEfmt ')],
    ['an ICO header whose entry points outside the file', icoBytes().slice(0, 30)],
    ['JSON', text('{"image": "<svg>"}')],
  ])('does not take %s for an image', (_what, bytes) => {
    expect(sniffImage(bytes)).toEqual({ ok: false, reason: 'unknown' });
  });
});

describe('media names', () => {
  it('is the SHA-256 of the bytes plus the sniffed extension', async () => {
    const bytes = pngBytes(3);
    const name = await mediaNameOf(bytes, 'png');
    expect(name).toBe(`${createHash('sha256').update(bytes).digest('hex')}.png`);
    expect(isMediaName(name)).toBe(true);
  });

  it.each([
    `${HASH}.svg`,
    `${HASH.toUpperCase()}.png`,
    `${HASH}.PNG`,
    `${HASH.slice(1)}.png`,
    `${HASH}0.png`,
    `${HASH}.png.png`,
    `../${HASH}.png`,
    `${HASH}.png/`,
    `${HASH}.png\n`,
    'https://img.example/og.png',
    '',
  ])('refuses %j', (name) => {
    expect(isMediaName(name)).toBe(false);
    expect(mediaPath(name)).toBeNull();
  });

  it('maps a stored name to our path and URL, and a hot-linked URL from before own media to null', () => {
    expect(mediaPath(`${HASH}.webp`)).toBe(`/media/${HASH}.webp`);
    expect(mediaUrl(`${HASH}.ico`, 'https://tooldir.example')).toBe(`https://tooldir.example/media/${HASH}.ico`);
    expect(mediaUrl('https://img.example/og.png', 'https://tooldir.example')).toBeNull();
    expect(mediaUrl(null, 'https://tooldir.example')).toBeNull();
  });
});

describe('placeholder', () => {
  it('shows the first letter or digit of the name, upper-cased', () => {
    expect(placeholderInitial('writely')).toBe('W');
    expect(placeholderInitial('  "3D maker"')).toBe('3');
    expect(placeholderInitial('élan')).toBe('É');
    expect(placeholderInitial('!!!')).toBe('?');
  });

  it('picks the same colour for the same name, and not one colour for all', () => {
    expect(placeholderColour('Writely')).toBe(placeholderColour(' writely '));
    const colours = new Set(
      ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta'].map(placeholderColour),
    );
    expect(colours.size).toBeGreaterThan(3);
  });

  it('is an SVG data: URI with the initial on the colour, and nothing from the name but the initial', () => {
    const uri = placeholderImage('<script>alert(1)</script> Tool');
    expect(uri.startsWith('data:image/svg+xml,')).toBe(true);
    const svg = decodeURIComponent(uri.slice('data:image/svg+xml,'.length));
    expect(svg).toContain(`fill="${placeholderColour('<script>alert(1)</script> Tool')}"`);
    expect(svg).toMatch(/>S<\/text><\/svg>$/);
    expect(svg).not.toContain('script');
    expect(uri).not.toMatch(/["'<> ]/); // safe inside any attribute
  });
});
