ALTER TABLE "sites" ADD COLUMN "crawl_attempt_offset" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "manual_retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "manual_retries_on" date;