-- The owner's health mails (docs/health.md "Consequences") are not transactional, so an account can turn them off.
--
-- 1. accounts.health_mails: whether the owner gets the health mails (failing 3 days, hidden, moved, recovered).
--    On by default; the webhook `site.health_changed` is written whatever it says (an integration asked for it).
-- 2. accounts.health_mail_token: the capability in each health mail's opt-out link and its List-Unsubscribe header
--    (RFC 8058 one-click): random, unique, only ever able to turn these mails off or on again.
ALTER TABLE "accounts" ADD COLUMN "health_mails" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "health_mail_token" uuid DEFAULT gen_random_uuid() NOT NULL;
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_health_mail_token_unique" UNIQUE("health_mail_token");
