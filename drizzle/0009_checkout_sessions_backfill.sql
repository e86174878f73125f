-- Sessions made before checkout_sessions existed are ours too: without a row their payments and subscription
-- events would be ignored as foreign (docs/payments.md). Their amounts were never kept, so amount_total and
-- currency stay null and are not compared; the mode follows from the plan.
INSERT INTO "checkout_sessions" ("id", "purpose", "account_id", "site_id", "plan", "mode", "created_at")
SELECT p."checkout_session_id", 'submission', p."account_id", p."id", p."plan",
  CASE WHEN p."plan" IN ('sponsored', 'pro') THEN 'subscription' ELSE 'payment' END, p."submitted_at"
FROM "pending_submissions" p
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Paid sites: a sponsored one keeps receiving its subscription's events.
INSERT INTO "checkout_sessions" ("id", "purpose", "account_id", "site_id", "plan", "mode", "subscription_id", "created_at")
SELECT s."stripe_checkout_session_id", 'submission', s."account_id", s."id", s."plan",
  CASE WHEN s."plan" IN ('sponsored', 'pro') THEN 'subscription' ELSE 'payment' END, s."stripe_subscription_id", s."submitted_at"
FROM "sites" s
WHERE s."via" = 'payment' AND s."stripe_checkout_session_id" IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Memberships bought through Stripe: the session id was never kept, so the row carries a placeholder id that no
-- event can name; what matters is the subscription id.
INSERT INTO "checkout_sessions" ("id", "purpose", "account_id", "plan", "mode", "subscription_id")
SELECT 'legacy_membership_' || a."id", 'membership', a."id", a."tier", 'subscription', a."stripe_subscription_id"
FROM "accounts" a
WHERE a."stripe_subscription_id" IS NOT NULL AND a."tier" <> 'none'
ON CONFLICT DO NOTHING;
