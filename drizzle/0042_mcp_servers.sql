-- Listings with an MCP server (issue 33, docs/mcp-servers.md).
--
-- 1. sites.mcp_url / pending_submissions.mcp_url: the listing's remote MCP endpoint, optional; a pending record's is
--    copied to the site when the payment promotes it.
-- 2. site_mcp: what the last probe of that endpoint found (status and reason, transport, protocol version, server
--    name and version, the tools with their input schema's size, the issuer when it asks for credentials). changed_at
--    moves only when those public facts change: the registry API's updatedAt and its updated_since filter.
-- 3. site_mcp_changes: the short changelog of the tool list (added, removed, re-described), shown to the owner.
CREATE TABLE "site_mcp" (
	"site_id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'unchecked' NOT NULL,
	"reason_kind" text DEFAULT 'not_checked_yet',
	"http_status" integer,
	"transport" text,
	"protocol_version" text,
	"server_name" text,
	"server_title" text,
	"server_version" text,
	"auth_issuer" text,
	"tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tool_count" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	"tools_seen_at" timestamp with time zone,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_mcp_status_check" CHECK ("site_mcp"."status" IN ('unchecked', 'reachable', 'unreachable', 'auth_required'))
);
--> statement-breakpoint
CREATE TABLE "site_mcp_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" uuid NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added" text[] DEFAULT '{}'::text[] NOT NULL,
	"removed" text[] DEFAULT '{}'::text[] NOT NULL,
	"changed" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pending_submissions" ADD COLUMN "mcp_url" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "mcp_url" text;--> statement-breakpoint
ALTER TABLE "site_mcp" ADD CONSTRAINT "site_mcp_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_mcp_changes" ADD CONSTRAINT "site_mcp_changes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_mcp_changed_idx" ON "site_mcp" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "site_mcp_changes_site_idx" ON "site_mcp_changes" USING btree ("site_id","changed_at");