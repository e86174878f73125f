// An image's width and height, read from its header alone, before anything decodes it (docs/media.md).
import type { MediaExtension } from './media-name';

/** The largest width and height we keep: a 2 MiB file can declare 65535×65535 pixels (16 GiB to decode). */
export const MAX_IMAGE_SIDE = 4096;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height as the format's header declares them, or undefined when the header is not there or not
 * readable (a JPEG without a frame header, a zero side, a truncated file). For a GIF, the largest extent any
 * frame reaches; for an ICO, the largest of its images (PNG or BMP inside). Never throws. Written here rather
 * than taken from `image-size` (npm): five formats in a few dozen lines, where the package's many detectors
 * would not fit the Worker bundle's last kilobytes.
 */
export function readImageSize(bytes: Uint8Array, extension: MediaExtension): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size: [number, number] | undefined;
  try {
    // Each reader gives [width, height]; a read past the end (a truncated header) throws and means "unreadable".
    size = extension === 'png' ? [view.getUint32(16), view.getUint32(20)] : READERS[extension](bytes, view);
  } catch {
    size = undefined;
  }
  return size && size[0] > 0 && size[1] > 0 ? { width: size[0], height: size[1] } : undefined;
}

/** True when both sides are within MAX_IMAGE_SIDE. */
export const fitsImageCap = (size: ImageSize) => size.width <= MAX_IMAGE_SIDE && size.height <= MAX_IMAGE_SIDE;

type Reader = (bytes: Uint8Array, view: DataView) => [number, number] | undefined;

const READERS: Record<Exclude<MediaExtension, 'png'>, Reader> = {
  /** The logical screen, then every frame's extent: a frame may reach beyond the screen it is drawn on. */
  gif(bytes, view) {
    const tableSize = (packed: number) => (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);
    const skipSubBlocks = (from: number) => {
      while (bytes[from]) from += bytes[from]! + 1;
      return from + 1;
    };
    let [width, height] = [view.getUint16(6, true), view.getUint16(8, true)];
    // Up to the trailer, or the end of the file: some encoders leave the trailer out, and browsers show those.
    for (let at = 13 + tableSize(bytes[10]!); at < bytes.length && bytes[at] !== 0x3b; ) {
      if (bytes[at] === 0x2c) {
        width = Math.max(width, view.getUint16(at + 1, true) + view.getUint16(at + 5, true));
        height = Math.max(height, view.getUint16(at + 3, true) + view.getUint16(at + 7, true));
        at = skipSubBlocks(at + 11 + tableSize(view.getUint8(at + 9))); // + the LZW minimum code size
      } else if (bytes[at] === 0x21) at = skipSubBlocks(at + 2);
      else return undefined; // an unknown block
    }
    return [width, height];
  },
  /** The first frame header (SOF0 to SOF15, not DHT, JPG or DAC), walking the marker segments from SOI. */
  jpg(bytes, view) {
    for (let at = 2; bytes[at] === 0xff; ) {
      const marker = view.getUint8(at + 1);
      if (marker === 0xd9 || marker === 0xda) return undefined; // the end, or scan data before any frame header
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return [view.getUint16(at + 7), view.getUint16(at + 5)];
      }
      // A fill byte, and the markers without a length (SOI, TEM, RST0-7), move on by one or two bytes.
      at +=
        marker === 0xff
          ? 1
          : marker === 0xd8 || marker === 0x01 || (marker & 0xf8) === 0xd0
            ? 2
            : 2 + view.getUint16(at + 2);
    }
    return undefined;
  },
  /** VP8 (lossy) frame header, VP8L (lossless) header bits, or VP8X (extended) canvas size. */
  webp(bytes, view) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    if (chunk === 'VP8 ' && view.getUint32(23) >>> 8 === 0x9d012a)
      return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
    if (chunk === 'VP8L' && bytes[20] === 0x2f) {
      const bits = view.getUint32(21, true);
      return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
    }
    if (chunk === 'VP8X') return [(view.getUint32(24, true) & 0xffffff) + 1, (view.getUint32(26, true) >>> 8) + 1];
    return undefined;
  },
  /** Every directory entry's image: a PNG's IHDR, or a BMP's info header (its height counts the mask too). */
  ico(bytes, view) {
    let [width, height] = [0, 0];
    for (let entry = 6; entry < 6 + 16 * view.getUint16(4, true); entry += 16) {
      const size = view.getUint32(entry + 8, true);
      const offset = view.getUint32(entry + 12, true);
      if (offset + size > bytes.length || size < 26) return undefined;
      const png = view.getUint32(offset) === 0x89504e47;
      width = Math.max(width, png ? view.getUint32(offset + 16) : Math.abs(view.getInt32(offset + 4, true)));
      height = Math.max(height, png ? view.getUint32(offset + 20) : Math.abs(view.getInt32(offset + 8, true)) / 2);
    }
    return [width, height];
  },
};
