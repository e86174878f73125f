// Reads the paged card listings (functions/pages/listing.ts) back out of their HTML, for the page tests.
import type { TestApp } from './test-app';

export interface ListingRead {
  status: number;
  html: string;
  /** Tool slugs of the sponsored slot, then of the list, as the cards show them. */
  sponsored: string[];
  cards: string[];
  /** Paths (with query) of the visible Previous/Next links, and of the head's <link rel>; null when absent. */
  prev: string | null;
  next: string | null;
  headPrev: string | null;
  headNext: string | null;
  canonical: string | null;
  /** Every application/ld+json block, JSON.parse'd. */
  jsonLd: Array<Record<string, unknown>>;
}

const slugsIn = (html: string) =>
  [...html.matchAll(/<li class="card">.*?<h3><a href="\/tools\/([^"]+)">/gs)].map((m) => m[1]!);
const unescape = (href: string) => href.replace(/&amp;/g, '&');
const attr = (html: string, pattern: RegExp) => {
  const m = html.match(pattern);
  return m ? unescape(m[1]!) : null;
};
const pathOf = (url: string | null) => (url === null ? null : url.replace(/^http:\/\/tooldir\.test/, ''));

export function parseListing(status: number, html: string): ListingRead {
  const sponsorSection = html.match(/<section class="sponsored"[^>]*>(.*?)<\/section>/s)?.[1] ?? '';
  const rest = html.replace(/<section class="sponsored"[^>]*>.*?<\/section>/s, '');
  return {
    status,
    html,
    sponsored: slugsIn(sponsorSection),
    cards: slugsIn(rest),
    prev: attr(html, /<a rel="prev" href="([^"]+)"/),
    next: attr(html, /<a rel="next" href="([^"]+)"/),
    headPrev: pathOf(attr(html, /<link rel="prev" href="([^"]+)"/)),
    headNext: pathOf(attr(html, /<link rel="next" href="([^"]+)"/)),
    canonical: attr(html, /<link rel="canonical" href="([^"]+)"/),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    ),
  };
}

/** GET a listing page (following no redirect) and parse it. */
export async function readListing(t: TestApp, path: string): Promise<ListingRead & { location: string | null }> {
  const res = await t.request(path, { redirect: 'manual' });
  return { ...parseListing(res.status, await res.text()), location: res.headers.get('location') };
}
