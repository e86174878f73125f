// The names our own media are stored and served under: `{sha256 of the bytes}.{extension}` (docs/media.md).
// The name is the whole address: the hash makes it immutable, the extension (from the sniffed bytes, never from
// the remote server's Content-Type) fixes the Content-Type we serve it with.
import { isMediaKey } from '../adapters/media/media-key';

/** The image formats we keep, by extension, with the Content-Type each is served with. SVG is never one of them. */
export const MEDIA_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  ico: 'image/x-icon',
} as const;

export type MediaExtension = keyof typeof MEDIA_TYPES;

/** True for a well-formed media name (`{64 lower-case hex}.{png|jpg|webp|gif|ico}`); the stores check the same. */
export const isMediaName = isMediaKey;

/** The Content-Type of a well-formed media name. */
export function mediaContentType(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1) as MediaExtension;
  return MEDIA_TYPES[extension];
}

/**
 * The same-origin path of a stored media name; null for anything else. Rows crawled before media were kept
 * hold the remote URL in the same metadata key: it is never passed on (the reader shows the placeholder).
 */
export function mediaPath(name: string | null | undefined): string | null {
  return isMediaName(name) ? `/media/${name}` : null;
}

/** The absolute URL (API fields) of a stored media name under our origin; null for anything else. */
export function mediaUrl(name: string | null | undefined, origin: string): string | null {
  const path = mediaPath(name);
  return path && `${origin}${path}`;
}

/** `{sha256 hex}.{extension}` of `bytes`. */
export async function mediaNameOf(bytes: Uint8Array, extension: MediaExtension): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `${hex}.${extension}`;
}
