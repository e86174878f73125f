CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"tools" integer NOT NULL,
	CONSTRAINT "search_words_tools_positive" CHECK ("search_words"."tools" > 0)
);
--> statement-breakpoint
DROP INDEX "sites_search_idx";--> statement-breakpoint
DROP INDEX "sites_name_trgm_idx";--> statement-breakpoint
DROP INDEX "sites_live_listed_idx";--> statement-breakpoint
-- Hand-written (drizzle-kit cannot declare functions): the category lexemes of search_vector, one `#<slug>`
-- per slug (src/directory/search-keys.ts builds the matching tsquery). A query word is letters and digits only,
-- so neither a word nor a word typed halfway (a prefix match) can ever match a lexeme that starts with '#'. IMMUTABLE, as a generated
-- column requires: array_to_string is only STABLE in general, but for text[] its result never varies.
CREATE FUNCTION search_category_lexemes(slugs text[]) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN cardinality(slugs) = 0 THEN ''::tsvector
    ELSE array_to_tsvector(string_to_array('#' || array_to_string(slugs, ' #'), ' ')) END
$$;--> statement-breakpoint
-- category_slugs before search_vector and name_vector, which read it (hand-ordered; drizzle-kit put it after).
ALTER TABLE "sites" ADD COLUMN "category_slugs" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(metadata->>'description', '')), 'B') || search_category_lexemes(category_slugs)) STORED;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "name_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(name, '')) || search_category_lexemes(category_slugs)) STORED;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "listed_at" timestamp with time zone GENERATED ALWAYS AS (coalesce(published_at, status_changed_at)) STORED;--> statement-breakpoint
CREATE INDEX "search_words_word_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sites_live_search_idx" ON "sites" USING gin ("search_vector") WHERE "sites"."status" = 'live';--> statement-breakpoint
CREATE INDEX "sites_live_name_vector_idx" ON "sites" USING gin ("name_vector") WHERE "sites"."status" = 'live';--> statement-breakpoint
CREATE INDEX "sites_live_lower_name_idx" ON "sites" USING btree (lower("name")) WHERE "sites"."status" = 'live';