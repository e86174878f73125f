-- accounts.active_key_count starts as the number of keys each account has that are not revoked
-- (src/accounts/api-keys.ts keeps it from here on, in the statements that create and revoke keys).
UPDATE "accounts" AS a
SET "active_key_count" = k.active
FROM (
  SELECT "account_id", count(*)::integer AS active FROM "api_keys" WHERE "revoked_at" IS NULL GROUP BY "account_id"
) AS k
WHERE a."id" = k."account_id";
