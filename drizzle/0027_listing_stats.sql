CREATE TABLE "site_stats_daily" (
	"site_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"impressions_sponsored" integer DEFAULT 0 NOT NULL,
	"impressions_featured" integer DEFAULT 0 NOT NULL,
	"impressions_standard" integer DEFAULT 0 NOT NULL,
	"badge_loads" integer DEFAULT 0 NOT NULL,
	"rolled_up_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_stats_daily_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
CREATE TABLE "stat_counters" (
	"day" date NOT NULL,
	"slug" text NOT NULL,
	"counter" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "stat_counters_day_slug_counter_pk" PRIMARY KEY("day","slug","counter"),
	CONSTRAINT "stat_counters_positive" CHECK ("stat_counters"."n" > 0)
);
--> statement-breakpoint
CREATE TABLE "stats_report_mail" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"last_week" date,
	"opted_out_at" timestamp with time zone,
	"opt_out_token" uuid DEFAULT gen_random_uuid() NOT NULL,
	CONSTRAINT "stats_report_mail_opt_out_token_unique" UNIQUE("opt_out_token")
);
--> statement-breakpoint
ALTER TABLE "site_stats_daily" ADD CONSTRAINT "site_stats_daily_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_report_mail" ADD CONSTRAINT "stats_report_mail_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_stats_daily_day_idx" ON "site_stats_daily" USING btree ("day");