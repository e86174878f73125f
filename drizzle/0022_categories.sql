CREATE TABLE "categories" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_categories" (
	"site_id" uuid NOT NULL,
	"category_slug" text NOT NULL,
	CONSTRAINT "site_categories_site_id_category_slug_pk" PRIMARY KEY("site_id","category_slug")
);
--> statement-breakpoint
ALTER TABLE "pending_submissions" ADD COLUMN "categories" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "site_categories" ADD CONSTRAINT "site_categories_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_categories" ADD CONSTRAINT "site_categories_category_slug_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."categories"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_categories_category_site_idx" ON "site_categories" USING btree ("category_slug","site_id");