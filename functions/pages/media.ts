// GET|HEAD /media/{sha256}.{ext} – our own copy of a tool's image or icon (docs/media.md)
import type { Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MediaObject, MediaObjectInfo } from '../../src/adapters/media/types';
import { ServiceError } from '../../src/errors';
import { isMediaName, mediaContentType } from '../../src/media/media-name';
import { errorResponse, serviceUnavailable } from '../errors';
import type { AppEnv } from '../types';

/**
 * What every media answer carries: the name is a content hash, so a year of caching with no revalidation; the
 * type comes from the name (sniffed from the bytes when stored), never guessed by the browser; and should an
 * image ever be opened as a document, it may load nothing at all.
 */
export const MEDIA_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'",
} as const;

const notFound = (c: Context<AppEnv>) =>
  errorResponse(
    c,
    new ServiceError('not_found', 'No media file has this name. Names are /media/{sha256}.{png|jpg|webp|gif|ico}.'),
  );

export function register(app: OpenAPIHono<AppEnv>) {
  // Hono answers HEAD with this GET route (body dropped); the store is then asked for the size only.
  app.get('/media/:name', async (c) => {
    const name = c.req.param('name');
    // A malformed name (traversal, another extension, upper-case hex) never reaches the store.
    if (!isMediaName(name)) return notFound(c);
    const deps = c.get('deps');
    let object: MediaObject | MediaObjectInfo | null;
    try {
      object = c.req.method === 'HEAD' ? await deps.media.head(name) : await deps.media.get(name);
    } catch (error) {
      // The bucket or disk failed, not the request: retryable, and never cached (no immutable headers).
      deps.log.error('media store failed', { name, err: String(error) });
      return errorResponse(c, serviceUnavailable());
    }
    if (!object) return notFound(c);
    const etag = `"${name.slice(0, 64)}"`;
    const headers = { ...MEDIA_HEADERS, ETag: etag, 'Content-Type': mediaContentType(name) };
    if (ifNoneMatch(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const sized = { ...headers, 'Content-Length': String(object.size) };
    return 'body' in object
      ? c.body((object as MediaObject).body as Uint8Array<ArrayBuffer> | ReadableStream, 200, sized)
      : c.body(null, 200, sized);
  });
  // Deeper paths (`/media/a/b`, an encoded slash) are no media name either: the same JSON 404, not the HTML page.
  app.get('/media/*', (c) => notFound(c));
}

/** RFC 9110 13.1.2: a list of entity tags, or "*"; weak tags compare weakly. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === etag;
  });
}
