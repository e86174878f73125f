// Minimal but well-formed image bodies for media tests: each starts with its format's real signature.
import { deflateSync } from 'node:zlib';

const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ihdr = (width: number, height: number) => {
  const data = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0]); // 8-bit RGB
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  return pngChunk('IHDR', data);
};

/** A valid 1×1 PNG (signature, IHDR, IDAT, IEND with correct CRCs); `seed` changes the pixel, hence the hash. */
export function pngBytes(seed = 0): Uint8Array {
  const pixel = Buffer.from([0, seed & 0xff, (seed >> 8) & 0xff, 0x80]); // filter byte + RGB
  return new Uint8Array(
    Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), pngChunk('IDAT', deflateSync(pixel)), pngChunk('IEND', Buffer.alloc(0))]),
  );
}

/** A PNG that declares `width`×`height` and carries a few bytes of pixel data: what a decompression bomb looks like. */
export function pngOfSize(width: number, height: number): Uint8Array {
  const rows = deflateSync(Buffer.alloc(64)); // far too little for the declared size: nothing may ever decode it
  return new Uint8Array(
    Buffer.concat([PNG_SIGNATURE, ihdr(width, height), pngChunk('IDAT', rows), pngChunk('IEND', Buffer.alloc(0))]),
  );
}

/** A baseline JPEG's segments up to its frame header (SOF0) declaring `width`×`height`, after an EXIF-like APP1. */
export function jpegOfSize(width: number, height: number, frameMarker = 0xc0): Uint8Array {
  const segment = (marker: number, data: number[]) => [
    0xff,
    marker,
    ((data.length + 2) >> 8) & 0xff,
    (data.length + 2) & 0xff,
    ...data,
  ];
  // An APP1 whose payload looks like a huge frame header: a reader must skip it by its length, not scan into it.
  const app1 = segment(0xe1, [...Buffer.from('Exif\0\0'), 0xff, 0xc0, 0, 17, 8, 0xff, 0xff, 0xff, 0xff]);
  const sof = segment(frameMarker, [
    8,
    (height >> 8) & 0xff,
    height & 0xff,
    (width >> 8) & 0xff,
    width & 0xff,
    1,
    1,
    0x11,
    0,
  ]);
  return new Uint8Array([
    0xff,
    0xd8,
    ...segment(0xe0, [...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...app1,
    ...sof,
    0xff,
    0xda,
    0,
    8,
    1,
    1,
    0,
    0,
    0x3f,
    0,
    0xff,
    0xd9,
  ]);
}

/** A GIF with a `screen` logical screen and one frame at `frame` (left, top, width, height). */
export function gifOfSize(
  screen: [number, number],
  frame: [number, number, number, number] = [0, 0, screen[0], screen[1]],
): Uint8Array {
  const le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
  return new Uint8Array([
    ...Buffer.from('GIF89a'),
    ...le(screen[0]),
    ...le(screen[1]),
    0x80,
    0,
    0,
    0,
    0,
    0,
    0xff,
    0xff,
    0xff,
    0x21,
    0xf9,
    4,
    0,
    0,
    0,
    0,
    0, // graphic control extension
    0x2c,
    ...le(frame[0]),
    ...le(frame[1]),
    ...le(frame[2]),
    ...le(frame[3]),
    0,
    2,
    2,
    0x44,
    0x01,
    0, // one frame, one sub-block
    0x3b,
  ]);
}

/** A WebP of each kind (lossy VP8, lossless VP8L, extended VP8X) declaring `width`×`height`. */
export function webpOfSize(kind: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Uint8Array {
  const payload = Buffer.alloc(10);
  if (kind === 'VP8 ') {
    payload.set([0, 0, 0, 0x9d, 0x01, 0x2a]);
    payload.writeUInt16LE(width & 0x3fff, 6);
    payload.writeUInt16LE(height & 0x3fff, 8);
  } else if (kind === 'VP8L') {
    payload[0] = 0x2f;
    payload.writeUInt32LE((((height - 1) & 0x3fff) << 14) | ((width - 1) & 0x3fff), 1);
  } else {
    payload.writeUIntLE(width - 1, 4, 3);
    payload.writeUIntLE(height - 1, 7, 3);
  }
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(12 + payload.length, 4);
  header.write('WEBP', 8, 'ascii');
  header.write(kind, 12, 'ascii');
  header.writeUInt32LE(payload.length, 16);
  return new Uint8Array(Buffer.concat([header, payload]));
}

/** An ICO of one entry holding `image` (a PNG, or a BMP info header when `bmp` is given as [width, height]). */
export function icoHolding(image: { png: Uint8Array } | { bmp: [number, number] }): Uint8Array {
  let payload: Buffer;
  if ('png' in image) payload = Buffer.from(image.png);
  else {
    payload = Buffer.alloc(40);
    payload.writeUInt32LE(40, 0);
    payload.writeInt32LE(image.bmp[0], 4);
    payload.writeInt32LE(image.bmp[1] * 2, 8); // the height counts the AND mask too
  }
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(payload.length, 14);
  header.writeUInt32LE(22, 18);
  return new Uint8Array(Buffer.concat([header, payload]));
}

/** Starts like a PNG (signature + IHDR) and is padded to `size` bytes: for the size cap. */
export function bigPngBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(pngBytes());
  return bytes;
}

/** A 1×1 baseline JPEG's segments (SOI, APP0, APP1, SOF0, SOS, EOI): enough for the sniffer and the size reader. */
export const jpegBytes = () => jpegOfSize(1, 1);
export const gifBytes = () =>
  new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3b]);
export const webpBytes = () =>
  new Uint8Array([
    ...Buffer.from('RIFF'),
    26,
    0,
    0,
    0,
    ...Buffer.from('WEBPVP8L'),
    13,
    0,
    0,
    0,
    0x2f,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);

/** One 1×1 icon entry pointing at a PNG inside the file. */
export function icoBytes(): Uint8Array {
  const png = pngBytes(7);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(1, 6);
  header.writeUInt8(1, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return new Uint8Array(Buffer.concat([header, png]));
}

export const SVG = `<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`;
export const HTML = '<!doctype html><html><head><title>Not an image</title></head><body>hello</body></html>';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
