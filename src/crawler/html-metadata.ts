// From HTML text to the metadata kept for the public page.
import type { PageMetadata } from './crawl-result';
import { scanHead, type ScannedTag } from './html-head-scanner';

export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 500;
const URL_MAX_LENGTH = 2048;
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

const TITLE_KEYS = ['og:title', 'twitter:title'];
const DESCRIPTION_KEYS = ['description', 'og:description', 'twitter:description'];
const IMAGE_KEYS = ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'];

/** Extracts title, description, image, icon, canonical URL and language; `finalUrl` anchors relative URLs. */
export function extractPageMetadata(html: string, finalUrl: string): PageMetadata {
  const head = scanHead(html);
  const metas = metaContents(head.tags);
  const base = baseUrl(head.tags, finalUrl);
  const links = head.tags.filter((tag) => tag.name === 'link');
  const firstMeta = (keys: readonly string[], clean: (value: string) => string | null) =>
    keys
      .map((key) => metas.get(key))
      .map((value) => (value === undefined ? null : clean(value)))
      .find((value) => value) ?? null;

  return {
    title:
      cleanText(head.title ?? '', TITLE_MAX_LENGTH) ??
      firstMeta(TITLE_KEYS, (value) => cleanText(value, TITLE_MAX_LENGTH)),
    description: firstMeta(DESCRIPTION_KEYS, (value) => cleanText(value, DESCRIPTION_MAX_LENGTH)),
    imageUrl: firstMeta(IMAGE_KEYS, (value) => absoluteHttpUrl(value, base)),
    iconUrl: iconUrl(links, base) ?? new URL('/favicon.ico', finalUrl).href,
    canonicalUrl: firstLinkHref(links, (rel) => rel.includes('canonical'), base),
    finalUrl,
    language: languageOf(head.tags),
  };
}

/** meta name= / property= (either spelling is common for og:*), lower-cased; the first occurrence wins. */
function metaContents(tags: readonly ScannedTag[]): Map<string, string> {
  const contents = new Map<string, string>();
  for (const tag of tags) {
    if (tag.name !== 'meta') continue;
    const content = tag.attributes.get('content');
    if (content === undefined) continue;
    for (const key of [tag.attributes.get('property'), tag.attributes.get('name')]) {
      const normalized = key?.trim().toLowerCase();
      if (normalized && !contents.has(normalized)) contents.set(normalized, content);
    }
  }
  return contents;
}

function baseUrl(tags: readonly ScannedTag[], finalUrl: string): string {
  const href = tags.find((tag) => tag.name === 'base' && tag.attributes.has('href'))?.attributes.get('href');
  return (href !== undefined && absoluteHttpUrl(href, finalUrl)) || finalUrl;
}

function iconUrl(links: readonly ScannedTag[], base: string): string | null {
  return (
    firstLinkHref(links, (rel) => rel.includes('icon'), base) ??
    firstLinkHref(
      links,
      (rel) => rel.includes('apple-touch-icon') || rel.includes('apple-touch-icon-precomposed'),
      base,
    )
  );
}

function firstLinkHref(
  links: readonly ScannedTag[],
  relMatches: (rel: string[]) => boolean,
  base: string,
): string | null {
  for (const link of links) {
    const rel = (link.attributes.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const href = link.attributes.get('href');
    if (href === undefined || !relMatches(rel)) continue;
    const url = absoluteHttpUrl(href, base);
    if (url) return url;
  }
  return null;
}

function languageOf(tags: readonly ScannedTag[]): string | null {
  const lang = tags
    .find((tag) => tag.name === 'html')
    ?.attributes.get('lang')
    ?.trim();
  return lang && lang.length <= 35 && LANGUAGE_TAG.test(lang) ? lang : null;
}

/** Resolves against `base`; only http(s) URLs of sane length are kept (no javascript:, data:, ...). */
export function absoluteHttpUrl(value: string, base: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(trimmed, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href.length <= URL_MAX_LENGTH ? url.href : null;
  } catch {
    return null;
  }
}

/** Collapses whitespace, drops control characters, caps at `max` code points; empty → null. */
export function cleanText(value: string, max: number): string | null {
  // eslint-disable-next-line no-control-regex
  const collapsed = value
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, '')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
  if (!collapsed) return null;
  const codePoints = Array.from(collapsed);
  return codePoints.length <= max ? collapsed : codePoints.slice(0, max).join('').trimEnd();
}
