// The states a submission (sites.status) and an edit of a live tool (site_edits.status) can be in: the schema types
// its columns with them, the API's record schema and the operator API declare them (docs/pipeline.md).

/** A submission's state past payment: docs/pipeline.md draws how one leads to the next. */
export const siteStatuses = ['queued', 'crawling', 'crawl_failed', 'pending_review', 'live', 'rejected'] as const;
export type SiteStatus = (typeof siteStatuses)[number];

/**
 * The reason a listing withdrawn by its owner carries (docs/pipeline.md "Withdrawal"): its rejection_reason, its
 * history step's reason, the site.withdrawn event's reason. A withdrawn listing is `rejected`; the reference's
 * status list is not extended.
 */
export const WITHDRAWAL_REASON = 'withdrawn by its owner';

/** An edit's life (site_edits.status): pending until an editor decides, or until a newer edit supersedes it. */
export const editStatuses = ['pending', 'approved', 'rejected', 'superseded'] as const;
export type EditStatus = (typeof editStatuses)[number];
/** What an editor decides (decide-edit), and the statuses last_edit shows. */
export const editDecisions = ['approved', 'rejected'] as const satisfies readonly EditStatus[];
export type EditDecision = (typeof editDecisions)[number];
