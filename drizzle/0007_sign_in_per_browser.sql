CREATE TABLE "sign_in_send_budgets" (
	"email" text NOT NULL,
	"client" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"sent" integer NOT NULL,
	CONSTRAINT "sign_in_send_budgets_email_client_pk" PRIMARY KEY("email","client")
);
--> statement-breakpoint
ALTER TABLE "sign_in_codes" DROP CONSTRAINT "sign_in_codes_pkey";--> statement-breakpoint
ALTER TABLE "sign_in_codes" ADD COLUMN "challenge_hash" text PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "sign_in_codes" ADD COLUMN "used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sign_in_send_budgets_window_idx" ON "sign_in_send_budgets" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "sign_in_codes_expires_idx" ON "sign_in_codes" USING btree ("expires_at");