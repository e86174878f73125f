// Minimal but well-formed image bodies for media tests: each starts with its format's real signature.
import { deflateSync } from 'node:zlib';

/** A valid 1×1 PNG (signature, IHDR, IDAT, IEND with correct CRCs); `seed` changes the pixel, hence the hash. */
export function pngBytes(seed = 0): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]); // 1×1, 8-bit RGB
  const pixel = Buffer.from([0, seed & 0xff, (seed >> 8) & 0xff, 0x80]); // filter byte + RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixel)), chunk('IEND', Buffer.alloc(0))]));
}

/** Starts like a PNG (signature + IHDR) and is padded to `size` bytes: for the size cap. */
export function bigPngBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(pngBytes());
  return bytes;
}

export const jpegBytes = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
export const gifBytes = () => new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3b]);
export const webpBytes = () => new Uint8Array([...Buffer.from('RIFF'), 26, 0, 0, 0, ...Buffer.from('WEBPVP8L'), 13, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

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
