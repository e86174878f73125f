/**
 * What happened to a listing, as the change feed says it (docs/change-feed.md): it became listed (live and not hidden
 * by the re-check), a public field of it changed while listed, or it stopped being listed (withdrawn, taken down,
 * hidden by the re-check, deleted).
 */
export const listingChangeKinds = ['appeared', 'changed', 'left'] as const;
export type ListingChangeKind = (typeof listingChangeKinds)[number];

/** How long the feed keeps a change; the sweep deletes older ones (src/directory/changes-prune.ts). */
export const LISTING_CHANGE_RETENTION_DAYS = 90;
