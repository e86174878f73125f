import type { PageMetadata } from '../crawler';
import type { SiteMedia } from '../media/fetch-site-media';
import { checkSubmittedUrl, canonicalUrl } from '../submissions/url';

/** What sites.metadata holds after a crawl: the public page's data plus the final URL's canonical form. */
export interface StoredMetadata {
  [key: string]: string | null;
  title: string | null;
  description: string | null;
  /** Our own copy of the og:image: a media name (`{sha256}.{ext}`, src/media/media-name.ts), or null. */
  image: string | null;
  /** Our own copy of the icon: a media name, or null. */
  icon: string | null;
  /** Where the image and icon were found: shown as text to editors on /admin, never linked or loaded. */
  imageSource: string | null;
  iconSource: string | null;
  /**
   * When the media step ran (ISO 8601). Rows without it predate own media: their image/icon keys may hold the
   * remote URLs, which no reader passes on (src/media/media-name.ts mediaPath; docs/media.md "Rows crawled before").
   */
  mediaFetchedAt: string;
  canonical: string | null;
  finalUrl: string;
  /** canonicalUrl(finalUrl): the review's duplicate check compares it with live sites. */
  finalCanonical: string | null;
  language: string | null;
}

/** Maps the crawler's result to the stored shape (one place for the key names other readers rely on). */
export function toStoredMetadata(page: PageMetadata, finalUrl: string, media: SiteMedia, now: Date): StoredMetadata {
  return {
    title: page.title,
    description: page.description,
    image: media.image,
    icon: media.icon,
    imageSource: page.imageUrl,
    iconSource: page.iconUrl,
    mediaFetchedAt: now.toISOString(),
    canonical: page.canonicalUrl,
    finalUrl,
    finalCanonical: canonicalOf(finalUrl),
    language: page.language,
  };
}

/** The canonical form of any http(s) URL, or null when it is not one the service would accept. */
export function canonicalOf(url: string): string | null {
  const checked = checkSubmittedUrl(url);
  return checked.ok ? canonicalUrl(checked.url) : null;
}
