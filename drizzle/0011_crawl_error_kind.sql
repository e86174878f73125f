ALTER TABLE "sites" ADD COLUMN "crawl_error_kind" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "crawl_error_http_status" integer;