CREATE TABLE "domain_proofs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"method" text,
	"verified_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"email_address" text,
	"email_code_hash" text,
	"email_code_expires_at" timestamp with time zone,
	"email_code_tries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_claims" (
	"id" uuid PRIMARY KEY NOT NULL,
	"site_id" uuid NOT NULL,
	"from_account_id" uuid NOT NULL,
	"to_account_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"outcome" text NOT NULL,
	"site_status" text NOT NULL,
	"settled_at" timestamp with time zone,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_proofs" ADD CONSTRAINT "domain_proofs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_claims" ADD CONSTRAINT "site_claims_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_proofs_account_domain_key" ON "domain_proofs" USING btree ("account_id","domain");--> statement-breakpoint
CREATE INDEX "domain_proofs_verified_domain_idx" ON "domain_proofs" USING btree ("domain","account_id") WHERE "domain_proofs"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "domain_proofs_recheck_idx" ON "domain_proofs" USING btree ("checked_at") WHERE "domain_proofs"."status" = 'verified' AND "domain_proofs"."method" IN ('dns', 'http');--> statement-breakpoint
CREATE INDEX "site_claims_site_idx" ON "site_claims" USING btree ("site_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "site_claims_open_dispute_key" ON "site_claims" USING btree ("site_id","to_account_id") WHERE "site_claims"."outcome" = 'disputed' AND "site_claims"."settled_at" IS NULL;