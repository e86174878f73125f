import type { PageMetadata } from './crawler';
import { checkSubmittedUrl, canonicalUrl } from '../submissions/url';

/** What sites.metadata holds after a crawl: the public page's data plus the final URL's canonical form. */
export interface StoredMetadata {
  [key: string]: string | null;
  title: string | null;
  description: string | null;
  image: string | null;
  icon: string | null;
  canonical: string | null;
  finalUrl: string;
  /** canonicalUrl(finalUrl): the review's duplicate check compares it with live sites. */
  finalCanonical: string | null;
  language: string | null;
}

/** Maps the crawler's result to the stored shape (one place for the key names other readers rely on). */
export function toStoredMetadata(page: PageMetadata, finalUrl: string): StoredMetadata {
  return {
    title: page.title,
    description: page.description,
    image: page.imageUrl,
    icon: page.iconUrl,
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
