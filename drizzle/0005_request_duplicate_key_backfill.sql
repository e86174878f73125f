-- The canonical URL and name rules changed (http = https, percent-encoding of unreserved characters, trailing
-- index files, mc_cid/mc_eid; NFKC + UTS #39 confusables skeleton for names). Stored keys are recomputed by
-- code (src/submissions/backfill-keys.ts) right after the migrations that insert a request like this one.
INSERT INTO duplicate_key_backfills (rules)
VALUES ('2026-11 url: http=https, unreserved %-decoding, index files; name: NFKC + UTS #39 skeleton')
ON CONFLICT (rules) DO NOTHING;
