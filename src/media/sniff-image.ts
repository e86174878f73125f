// Which image format a body is, from its first bytes alone (the remote Content-Type is never trusted).
import type { MediaExtension } from './media-name';

export type SniffResult = { ok: true; extension: MediaExtension } | { ok: false; reason: 'svg' | 'unknown' };

const ascii = (bytes: Uint8Array, from: number, text: string) =>
  bytes.length >= from + text.length && [...text].every((char, i) => bytes[from + i] === char.charCodeAt(0));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Recognises PNG, JPEG, WebP, GIF and ICO by their signatures (WHATWG MIME Sniffing's image patterns, plus the
 * first chunk or directory entry, so a text file that happens to start alike is not taken for an image). SVG is
 * refused: it is a document that can carry script and links, and we never serve one. Anything else is unknown.
 */
export function sniffImage(bytes: Uint8Array): SniffResult {
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte) && ascii(bytes, 12, 'IHDR'))
    return { ok: true, extension: 'png' };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { ok: true, extension: 'jpg' };
  if ((ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) && bytes.length >= 13)
    return { ok: true, extension: 'gif' };
  if (
    ascii(bytes, 0, 'RIFF') &&
    ascii(bytes, 8, 'WEBP') &&
    ['VP8 ', 'VP8L', 'VP8X'].some((chunk) => ascii(bytes, 12, chunk))
  ) {
    return { ok: true, extension: 'webp' };
  }
  if (isIco(bytes)) return { ok: true, extension: 'ico' };
  return { ok: false, reason: looksLikeSvg(bytes) ? 'svg' : 'unknown' };
}

/** ICONDIR (reserved 0, type 1 = icon, count ≥ 1) whose first entry points at image data inside the file. */
function isIco(bytes: Uint8Array): boolean {
  if (bytes.length < 22 || bytes[0] !== 0 || bytes[1] !== 0 || bytes[2] !== 1 || bytes[3] !== 0) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(4, true);
  const directoryEnd = 6 + 16 * count;
  if (count === 0 || bytes.length < directoryEnd) return false;
  const size = view.getUint32(6 + 8, true);
  const offset = view.getUint32(6 + 12, true);
  return size > 0 && offset >= directoryEnd && offset + size <= bytes.length;
}

/** An `<svg` root near the start of a text body (after a BOM, an XML prolog, comments or a doctype). */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024)).toLowerCase();
  return /^[\ufeff\s]*</.test(head) && head.includes('<svg');
}
