CREATE TABLE "duplicate_key_backfills" (
	"rules" text PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"report" jsonb
);
