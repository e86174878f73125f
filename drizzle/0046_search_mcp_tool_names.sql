-- Search finds a listing by the name of a tool of its MCP server (issue 33; docs/mcp-and-search.md "MCP tool names").
--
-- 1. site_mcp.tool_keys: the tool names of a reachable server as search compares them, each lower-cased without
--    spaces, punctuation and control characters (create_issue, create-issue, createIssue and "Create Issue" are one
--    key), a generated column: the row's own statement keeps it, linear in the rows it writes (issue 27), and there
--    is no trigger to forget. A key over 200 characters is left out (a query is at most 200, so it could never match,
--    and a GIN entry has a size limit a hostile server must not reach). Not reachable: no keys, as the tool record
--    shows no tools then. The 0043 trigger already bumps listing_version when status or tools change.
-- 2. search_tool_name_hits: tier 5 of a search, the live listings whose current server (site_mcp.url is the listing's
--    mcp_url now: the tool record's rule, mcpJoin in src/directory/mcp-record.ts) has a tool named as the whole query,
--    that no text tier matched, newest first. One GIN probe that finds nothing for almost every query.
-- 3. search_results runs it only when the text tiers leave room on the page (a page they fill costs nothing more),
--    and before the typo fallback (a tool's name is found as typed, never corrected away).
-- The one place of the key's rule: the query's key is this function's key of a tool named as the query.
CREATE FUNCTION search_mcp_tool_keys(status text, tools jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN status = 'reachable' AND jsonb_typeof(tools) = 'array' THEN ARRAY(
    SELECT DISTINCT k.key FROM jsonb_array_elements(tools) AS t(tool),
      regexp_replace(lower(t.tool ->> 'name'), '[[:space:][:punct:][:cntrl:]]+', '', 'g') AS k(key)
    WHERE length(k.key) BETWEEN 1 AND 200 ORDER BY k.key) ELSE '{}'::text[] END
$$;
--> statement-breakpoint
ALTER TABLE "site_mcp" ADD COLUMN "tool_keys" text[] GENERATED ALWAYS AS (search_mcp_tool_keys(status, tools)) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "site_mcp_tool_keys_idx" ON "site_mcp" USING gin ("tool_keys");
--> statement-breakpoint
-- Tier 5 of one search (search_hits has tiers 0 to 4): `take` listings after the previous page's last row. A listing a
-- text tier matches is left out (it is shown there): the condition is search_hits' tier 4 (every word's lexeme, the
-- last as a prefix, or a category the word names) or tier 0 (the name is the query), built the same way; `skip` (the
-- page's rows so far) guards the page besides.
CREATE FUNCTION search_tool_name_hits(
  terms text[], query text, category text, take int, after_tier int, after_at timestamptz, after_id uuid, skip uuid[]
) RETURNS search_hit[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  key text := (search_mcp_tool_keys('reachable', jsonb_build_array(jsonb_build_object('name', query))))[1];
  text_match tsquery := '';
  lex text;
  p tsquery;
  named text;
  n_terms int := coalesce(cardinality(terms), 0);
BEGIN
  IF take <= 0 OR key IS NULL OR NOT EXISTS (SELECT 1 FROM site_mcp m WHERE m.tool_keys @> ARRAY[key]) THEN
    RETURN '{}';
  END IF;
  FOR i IN 1..n_terms LOOP
    lex := (tsvector_to_array(to_tsvector('english', terms[i])))[1];
    CONTINUE WHEN lex IS NULL;
    p := CASE WHEN i = n_terms THEN (quote_literal(lex) || ':*')::tsquery ELSE quote_literal(lex)::tsquery END;
    named := (SELECT string_agg(quote_literal('#' || c.slug), ' | ') FROM categories c
      WHERE c.search_terms @@ quote_literal(lex)::tsquery AND c.live_tools > 0);
    text_match := text_match && CASE WHEN named IS NULL THEN p ELSE p || named::tsquery END;
  END LOOP;
  RETURN ARRAY(
    SELECT ROW(s.id, s.listed_at, 5)::search_hit FROM site_mcp m JOIN sites s ON s.id = m.site_id AND s.mcp_url = m.url
    WHERE m.tool_keys @> ARRAY[key] AND (s.status = 'live' AND NOT s.health_hidden)
      AND (category IS NULL OR s.category_slugs @> ARRAY[category])
      AND lower(s.name) <> lower(query)
      AND NOT (numnode(text_match) > 0 AND s.search_vector @@ text_match)
      AND s.id <> ALL (coalesce(skip, '{}'))
      AND (after_tier IS DISTINCT FROM 5 OR (s.listed_at, s.id) < (after_at, after_id))
    ORDER BY s.listed_at DESC, s.id DESC LIMIT take);
END $$;
--> statement-breakpoint
-- search_results as drizzle/0034_search_meaning.sql and 0038 left it, with tier 5 after the text tiers (above).
CREATE OR REPLACE FUNCTION search_results(query text, terms text[], category text, take integer, correct boolean, typo_attempt integer, after_tier integer, after_at timestamp with time zone, after_id uuid, walk_cost real, walk_slack real, first_walk integer, probe_walk integer, max_walk integer, postings_batch integer, posting_cost real, attempts integer, fallback_tools integer, fallback_categories integer) RETURNS TABLE(ord integer, id uuid, sort_at timestamp with time zone, tier integer, mode text, meta jsonb)
    LANGUAGE plpgsql STABLE ROWS 60
    SET plan_cache_mode TO 'force_generic_plan'
    SET client_min_messages TO 'warning'
    AS $$
DECLARE
  hits search_hit[] := '{}';
  fixes text[];
  used int;
  offered search_hit[] := '{}';
  closest jsonb;
BEGIN
  IF category IS NOT NULL AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.slug = category) THEN
    RETURN QUERY SELECT 1, NULL::uuid, NULL::timestamptz, NULL::int, 'meta'::text, jsonb_build_object('unknown_category', true);
    RETURN;
  END IF;
  IF typo_attempt IS NULL THEN
    -- Tier 5 (a tool of the listing's MCP server is named as the query) comes after every text tier, so it is looked
    -- up only when they leave room on the page; a cursor inside tier 5 has no text tier left to read.
    IF after_tier IS DISTINCT FROM 5 THEN
      hits := search_hits(terms, lower(query), category, take, after_tier, after_at, after_id, walk_cost, walk_slack, first_walk, probe_walk, max_walk, postings_batch, posting_cost);
    END IF;
    IF cardinality(hits) < take THEN
      hits := hits || search_tool_name_hits(terms, query, category, take - cardinality(hits), after_tier, after_at, after_id,
        ARRAY(SELECT h.id FROM unnest(hits) AS h));
    END IF;
  END IF;
  IF typo_attempt IS NOT NULL OR (correct AND after_tier IS NULL AND cardinality(hits) = 0) THEN
    fixes := search_corrections(terms, attempts);
    FOR i IN coalesce(typo_attempt, 1)..least(coalesce(typo_attempt, attempts), cardinality(fixes)) LOOP
      hits := search_hits(string_to_array(fixes[i], ' '), fixes[i], category, take,
        after_tier, after_at, after_id, walk_cost, walk_slack, first_walk, probe_walk, max_walk, postings_batch, posting_cost);
      IF cardinality(hits) > 0 THEN
        used := i;
        EXIT;
      END IF;
    END LOOP;
  END IF;
  IF after_tier IS NULL AND cardinality(hits) = 0 THEN
    -- Nothing matches: the newest tools (of the category, if it has any) and the categories closest to the words.
    offered := ARRAY(SELECT ROW(s.id, s.listed_at, NULL)::search_hit FROM sites s
      WHERE (s.status = 'live' AND NOT s.health_hidden) AND (category IS NULL OR s.search_vector @@ quote_literal('#' || category)::tsquery)
      ORDER BY s.listed_at DESC, s.id DESC LIMIT fallback_tools);
    IF cardinality(offered) = 0 AND category IS NOT NULL THEN
      offered := ARRAY(SELECT ROW(s.id, s.listed_at, NULL)::search_hit FROM sites s WHERE (s.status = 'live' AND NOT s.health_hidden)
        ORDER BY s.listed_at DESC, s.id DESC LIMIT fallback_tools);
    END IF;
    closest := (SELECT coalesce(jsonb_agg(jsonb_build_object('slug', x.slug, 'name', x.name, 'tool_count', x.live_tools)
        ORDER BY x.score DESC, x.live_tools DESC, lower(x.name), x.slug), '[]')
      FROM (
        SELECT c.slug, c.name, c.live_tools,
          coalesce((SELECT max(similarity(w, t)) FROM unnest(terms) AS t, unnest(tsvector_to_array(c.search_terms)) AS w), 0) AS score
        FROM categories c WHERE c.live_tools > 0
        ORDER BY 4 DESC, c.live_tools DESC, lower(c.name), c.slug LIMIT fallback_categories
      ) x);
  END IF;
  RETURN QUERY
    SELECT h.i::int, h.id, h.sort_at, h.tier, CASE WHEN used IS NULL THEN 'text' ELSE 'typo' END
      , NULL::jsonb FROM unnest(hits) WITH ORDINALITY AS h(id, sort_at, tier, i)
    UNION ALL
    SELECT (cardinality(hits) + h.i)::int, h.id, h.sort_at, NULL::int, 'fallback', NULL::jsonb FROM unnest(offered) WITH ORDINALITY AS h(id, sort_at, tier, i)
    UNION ALL
    SELECT cardinality(hits) + cardinality(offered) + 1, NULL::uuid, NULL::timestamptz, NULL::int, 'meta',
      jsonb_strip_nulls(jsonb_build_object(
        'categories', (SELECT coalesce(jsonb_object_agg(c.slug, c.name), '{}') FROM categories c),
        'corrected', fixes[used], 'attempt', used, 'closest_categories', closest));
END $$;
