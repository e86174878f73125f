// At crawl time (and in the backfill of older rows), a site's og:image and icon become our own media.
import type { Deps } from '../deps';
import { CRAWL_DEFAULTS } from '../crawler/crawl-page';
import { CrawlDeadlineError } from '../crawler/crawl-failures';
import { fetchImage } from './fetch-image';
import { MEDIA_TYPES, mediaNameOf } from './media-name';

/** The remote addresses a crawl found (absolute http(s) URLs, or null). */
export interface MediaSources {
  imageUrl: string | null;
  iconUrl: string | null;
}

/** Media names (`{sha256}.{ext}`) of what could be fetched and stored; null where the tool gets the placeholder. */
export interface SiteMedia {
  image: string | null;
  icon: string | null;
}

type MediaDeps = Pick<Deps, 'crawl' | 'config' | 'media' | 'log'>;

/**
 * Fetches both sources at once under one deadline (the crawl's), stores each recognised image under its content
 * hash (an object already there is not written again, so one image used by many tools is stored once) and
 * returns their names. Never throws: a failed image (refused address, too big, SVG, not an image, storage down)
 * is logged for operators and leaves that slot null, and the crawl goes on (docs/media.md).
 */
export async function fetchSiteMedia(
  deps: MediaDeps,
  sources: MediaSources,
  context: { siteId: string },
): Promise<SiteMedia> {
  const timeoutMs = deps.crawl.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CrawlDeadlineError(`the images took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  const started = new Map<string, Promise<string | null>>();
  // A page whose og:image is also its icon has it fetched once.
  const keep = (url: string | null) => {
    if (!url) return Promise.resolve(null);
    const pending = started.get(url) ?? fetchAndStore(deps, url, controller.signal, context.siteId);
    started.set(url, pending);
    return pending;
  };
  try {
    const [image, icon] = await Promise.all([keep(sources.imageUrl), keep(sources.iconUrl)]);
    return { image, icon };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new Error('media step finished'));
  }
}

async function fetchAndStore(
  deps: MediaDeps,
  url: string,
  signal: AbortSignal,
  siteId: string,
): Promise<string | null> {
  try {
    const result = await fetchImage(url, {
      fetch: deps.crawl.fetch,
      resolver: deps.crawl.resolver,
      allowPrivate: deps.config.crawl.allowPrivate,
      signal,
    });
    if (!result.ok) {
      deps.log.info('image not kept; the tool shows its placeholder', {
        site_id: siteId,
        kind: result.error.kind,
        err: result.error.detail,
      });
      return null;
    }
    const name = await mediaNameOf(result.bytes, result.extension);
    if (!(await deps.media.head(name))) await deps.media.put(name, result.bytes, MEDIA_TYPES[result.extension]);
    return name;
  } catch (error) {
    // Our side (storage down, a bug): the crawl still succeeds, the tool shows its placeholder.
    deps.log.error('image could not be stored', { site_id: siteId, err: String(error) });
    return null;
  }
}
