-- The rules of issue 27 change values already stored, and none of them can be computed in SQL, so like 0005 and 0028
-- this asks for the code backfill that runs right after the migrations (src/submissions/requested-key-backfill.ts):
-- - name keys: a blank filler (U+2800, U+3164, U+115F, U+1160, U+FFA0, U+1D159) is a space, not nothing, so
--   `Acme⠀Writer` is `Acme Writer` (normalized_name recomputed);
-- - URLs: a record keeps its URL as the WHATWG parser reads it (`new URL(x).href`), so `sites.url` and
--   `pending_submissions.url` stored as typed are rewritten to that spelling (what browsers already went to);
-- - account addresses: the domain as mail reads it (UTS #46: full-width letters, ideographic full stops and the
--   trailing dot folded), so an owner who signed up as `ada@bücher.example` still reaches the same account;
-- - OAuth client names that show nothing (blanks, fillers, lone marks) become no name.
INSERT INTO duplicate_key_backfills (rules)
VALUES ('2027-01 name: fillers are spaces; url: stored as parsed (href); accounts: mail domains folded (UTS 46); oauth: blank client names cleared')
ON CONFLICT (rules) DO NOTHING;
