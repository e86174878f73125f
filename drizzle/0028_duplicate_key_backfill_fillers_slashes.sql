-- The canonical URL and name rules changed again (issue 21): repeated slashes in a path are one slash and index
-- files compare in any case (`//app/INDEX.HTML` is `/app`); blank fillers (U+2800, U+1D159 beside the Hangul
-- fillers) count as nothing in names. Stored keys are recomputed by code (src/submissions/backfill-keys.ts) right
-- after the migrations, like 0005.
INSERT INTO duplicate_key_backfills (rules)
VALUES ('2026-11 url: repeated slashes, index files in any case; name: braille blank and null notehead are fillers')
ON CONFLICT (rules) DO NOTHING;
