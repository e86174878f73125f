-- Issue 31 (money and mistakes): the refund of a paid submission rejected before it went live (sites.refund_*),
-- the end of a membership set to cancel at its period's end (accounts.membership_ends_at), the opt-out of status
-- mails with its one-click unsubscribe token (account_mail_settings), and mail headers in the local outbox.
CREATE TABLE "account_mail_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"unsubscribe_token" uuid DEFAULT gen_random_uuid() NOT NULL,
	"status_mail_off_at" timestamp with time zone,
	CONSTRAINT "account_mail_settings_unsubscribe_token_unique" UNIQUE("unsubscribe_token")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "membership_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "refund_state" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "refund_amount" integer;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "refund_currency" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_mail_settings" ADD CONSTRAINT "account_mail_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sites_refund_due_idx" ON "sites" USING btree ("status_changed_at") WHERE "sites"."refund_state" = 'due';