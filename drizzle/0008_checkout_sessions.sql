CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"account_id" uuid NOT NULL,
	"site_id" uuid,
	"plan" text NOT NULL,
	"mode" text NOT NULL,
	"amount_total" bigint,
	"currency" text,
	"promotion_codes" boolean DEFAULT false NOT NULL,
	"ref" text,
	"subscription_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "sponsor_status" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "sponsor_period_end" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_ref_key" ON "checkout_sessions" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "checkout_sessions_subscription_idx" ON "checkout_sessions" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_created_idx" ON "checkout_sessions" USING btree ("created_at");