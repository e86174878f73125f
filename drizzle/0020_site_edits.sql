CREATE TABLE "site_edits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"site_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text,
	"normalized_name" text,
	"description" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "site_edits" ADD CONSTRAINT "site_edits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_edits_one_pending_key" ON "site_edits" USING btree ("site_id") WHERE "site_edits"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "site_edits_site_idx" ON "site_edits" USING btree ("site_id","submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "site_edits_pending_idx" ON "site_edits" USING btree ("submitted_at") WHERE "site_edits"."status" = 'pending';