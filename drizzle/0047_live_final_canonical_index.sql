-- Lookups of a listing by its key use an index at any size (issue 27, docs/bench.md "Bulk writes").
-- The review's duplicate check (src/pipeline/review-site.ts) looks for a live tool whose crawl ended on the same
-- address as the one under review: its `metadata->>'finalCanonical'` had no index, so each review read every live
-- tool. Its other arm, `canonical_url`, now states the partial unique index's condition (withdrawn_at IS NULL), so
-- the two arms are two index scans.
CREATE INDEX "sites_live_final_canonical_idx" ON "sites" USING btree (("metadata"->>'finalCanonical')) WHERE "sites"."status" = 'live';
