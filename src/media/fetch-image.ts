// One image fetched the way the crawler fetches a page: same address policy, redirect checks and byte cap.
import type { Resolver } from '../adapters/resolver/resolver';
import { crawlFailure, type CrawlFailure } from '../crawler/crawl-result';
import { readBoundedBody } from '../crawler/read-body';
import { discardBody, fetchFollowingCheckedRedirects } from '../crawler/safe-fetch';
import { CRAWL_DEFAULTS } from '../crawler/crawl-page';
import type { MediaExtension } from './media-name';
import { sniffImage } from './sniff-image';
import { MAX_IMAGE_SIDE, fitsImageCap, readImageSize } from './image-size';

/**
 * Every way an image fetch fails: the crawler's kinds, plus a body that is no image we keep, an SVG, or an image
 * whose header declares more than MAX_IMAGE_SIDE pixels a side.
 */
export interface MediaFailure {
  kind: CrawlFailure['kind'] | 'not_an_image' | 'svg_refused' | 'too_many_pixels';
  /** For operators (logs): may name addresses and URLs, like a crawl failure's detail. */
  detail: string;
}

export type ImageFetchResult =
  | { ok: true; bytes: Uint8Array; extension: MediaExtension }
  | { ok: false; error: MediaFailure };

export interface ImageFetchOptions {
  fetch: typeof fetch;
  resolver: Resolver;
  allowPrivate: boolean;
  /** The caller's deadline (abort with CrawlDeadlineError to have it reported as a timeout). */
  signal: AbortSignal;
  /** Default 2 MiB, the crawler's page cap. */
  maxBytes?: number;
  maxRedirects?: number;
}

const ACCEPT = 'image/webp,image/png,image/jpeg,image/gif,image/x-icon;q=0.9,*/*;q=0.1';

/**
 * GETs `url` through the crawler's safe fetch and keeps the body only when its bytes are a PNG, JPEG, WebP, GIF
 * or ICO (src/media/sniff-image.ts) whose header declares at most MAX_IMAGE_SIDE pixels a side
 * (src/media/image-size.ts). The remote Content-Type plays no part. Never throws for anything the remote side
 * can cause.
 */
export async function fetchImage(url: string, options: ImageFetchOptions): Promise<ImageFetchResult> {
  const maxBytes = options.maxBytes ?? CRAWL_DEFAULTS.maxBytes;
  const fetched = await fetchFollowingCheckedRedirects(url, {
    fetch: options.fetch,
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    maxRedirects: options.maxRedirects ?? CRAWL_DEFAULTS.maxRedirects,
    signal: options.signal,
    headers: { 'user-agent': CRAWL_DEFAULTS.userAgent, accept: ACCEPT },
  });
  if (!fetched.ok) return fetched;
  const { response, url: finalUrl } = fetched;
  if (!response.ok) {
    discardBody(response);
    return crawlFailure('http_error', `${finalUrl.href} answered HTTP ${response.status}`, response.status);
  }
  const body = await readBoundedBody(response, maxBytes, options.signal);
  if (!body.ok)
    return { ok: false, error: { kind: body.error.kind, detail: `${finalUrl.href}: ${body.error.detail}` } };
  const sniffed = sniffImage(body.bytes);
  if (sniffed.ok) {
    // Read from the header before anything decodes it: a small file can declare billions of pixels.
    const size = readImageSize(body.bytes, sniffed.extension);
    if (!size)
      return {
        ok: false,
        error: {
          kind: 'not_an_image',
          detail: `${finalUrl.href}: the ${sniffed.extension} header declares no readable size`,
        },
      };
    if (!fitsImageCap(size)) {
      return {
        ok: false,
        error: {
          kind: 'too_many_pixels',
          detail: `${finalUrl.href} is ${size.width}×${size.height} (at most ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE})`,
        },
      };
    }
    return { ok: true, bytes: body.bytes, extension: sniffed.extension };
  }
  return sniffed.reason === 'svg'
    ? { ok: false, error: { kind: 'svg_refused', detail: `${finalUrl.href} is an SVG document (never kept)` } }
    : {
        ok: false,
        error: { kind: 'not_an_image', detail: `${finalUrl.href} is not a PNG, JPEG, WebP, GIF or ICO image` },
      };
}
