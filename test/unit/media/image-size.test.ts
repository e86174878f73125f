// Width and height come from the header alone, for every format we keep, and a side above 4096 is refused before
// anything decodes the image (src/media/image-size.ts, docs/media.md).
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_SIDE, fitsImageCap, readImageSize } from '../../../src/media/image-size';
import { sniffImage } from '../../../src/media/sniff-image';
import {
  gifBytes,
  gifOfSize,
  icoBytes,
  icoHolding,
  jpegBytes,
  jpegOfSize,
  pngBytes,
  pngOfSize,
  webpBytes,
  webpOfSize,
} from '../../helpers/image-bytes';

/** The size as the fetch path reads it: sniff the format, then read that format's header. */
function sizeOf(bytes: Uint8Array) {
  const sniffed = sniffImage(bytes);
  if (!sniffed.ok) throw new Error(`not an image: ${sniffed.reason}`);
  return readImageSize(bytes, sniffed.extension);
}

describe('readImageSize', () => {
  it.each([
    ['PNG', pngOfSize(640, 480), { width: 640, height: 480 }],
    ['PNG 1×1 (the fixture)', pngBytes(), { width: 1, height: 1 }],
    ['JPEG (a frame header after an APP1 that looks like one)', jpegOfSize(1200, 630), { width: 1200, height: 630 }],
    ['progressive JPEG (SOF2)', jpegOfSize(800, 600, 0xc2), { width: 800, height: 600 }],
    ['JPEG 1×1 (the fixture)', jpegBytes(), { width: 1, height: 1 }],
    ['GIF', gifOfSize([300, 200]), { width: 300, height: 200 }],
    ['GIF 1×1 (the fixture)', gifBytes(), { width: 1, height: 1 }],
    ['GIF whose frame reaches past its screen', gifOfSize([10, 10], [5, 6, 5000, 20]), { width: 5005, height: 26 }],
    [
      'GIF without its trailer',
      gifOfSize([30, 20]).subarray(0, gifOfSize([30, 20]).length - 1),
      { width: 30, height: 20 },
    ],
    ['WebP lossy', webpOfSize('VP8 ', 1024, 768), { width: 1024, height: 768 }],
    ['WebP lossless', webpOfSize('VP8L', 4096, 1), { width: 4096, height: 1 }],
    ['WebP lossless 1×1 (the fixture)', webpBytes(), { width: 1, height: 1 }],
    ['WebP extended', webpOfSize('VP8X', 16_000_000, 3), { width: 16_000_000, height: 3 }],
    ['ICO holding a PNG (the fixture)', icoBytes(), { width: 1, height: 1 }],
    ['ICO holding a large PNG', icoHolding({ png: pngOfSize(70_000, 32) }), { width: 70_000, height: 32 }],
    ['ICO holding a BMP', icoHolding({ bmp: [48, 48] }), { width: 48, height: 48 }],
  ])('%s', (_label, bytes, size) => {
    expect(sizeOf(bytes)).toEqual(size);
  });

  it.each([
    ['a PNG of zero width', pngOfSize(0, 10)],
    [
      'a JPEG without a frame header',
      new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xda, 0, 2, 0xff, 0xd9]),
    ],
    ['a JPEG cut inside its frame header', jpegOfSize(100, 100).subarray(0, 40)],
    ['a JPEG whose segments do not start with 0xFF', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 2, 0x12, 0x34, 0, 0])],
    ['a GIF cut inside a frame', gifOfSize([10, 10]).subarray(0, 30)],
    ['a GIF with an unknown block', new Uint8Array([...gifBytes().subarray(0, 19), 0x99, 0x3b])],
    [
      'a lossy WebP without its start code',
      (() => {
        const b = webpOfSize('VP8 ', 10, 10);
        b[23] = 0;
        return b;
      })(),
    ],
  ])('is undefined for %s (the image is refused)', (_label, bytes) => {
    expect(sizeOf(bytes)).toBeUndefined();
  });

  it('caps both sides at 4096', () => {
    expect(MAX_IMAGE_SIDE).toBe(4096);
    expect(fitsImageCap({ width: 4096, height: 4096 })).toBe(true);
    expect(fitsImageCap({ width: 4097, height: 1 })).toBe(false);
    expect(fitsImageCap({ width: 1, height: 4097 })).toBe(false);
  });

  it('never throws on random bytes after a valid signature', () => {
    for (let i = 0; i < 500; i++) {
      for (const start of [pngBytes(), jpegBytes(), gifBytes(), webpBytes(), icoBytes()]) {
        const noise = crypto.getRandomValues(new Uint8Array(i % 64));
        const bytes = new Uint8Array([...start.subarray(0, 12 + (i % 20)), ...noise]);
        const sniffed = sniffImage(bytes);
        if (sniffed.ok) expect(() => readImageSize(bytes, sniffed.extension)).not.toThrow();
      }
    }
  });
});
