-- Crawl errors used to be stored as "<code>: <detail>" and copied, detail and all, into status_note and
-- site_history, where the detail could name resolved addresses and internal hosts. Split each stored error into
-- its kind (what submitters are told, docs/pipeline.md "Crawl failures") and the operator detail, and cut the
-- detail out of the notes: the history is meant to be shown to submitters.
UPDATE sites SET
  crawl_error_kind = CASE
    WHEN crawl_error = 'crawl did not finish' THEN 'did_not_finish'
    WHEN crawl_error LIKE 'blocked_address: port %' THEN 'blocked_port'
    WHEN crawl_error LIKE 'network_error: could not resolve %' OR crawl_error LIKE 'network_error: % has no addresses' THEN 'dns_error'
    WHEN crawl_error LIKE 'network_error: crawler error: %' THEN 'crawler_error'
    WHEN split_part(crawl_error, ': ', 1) IN ('blocked_address', 'bad_url', 'too_many_redirects', 'timeout', 'too_large', 'not_html', 'http_error', 'network_error')
      THEN split_part(crawl_error, ': ', 1)
    ELSE 'crawler_error'
  END,
  crawl_error_http_status = CASE
    WHEN crawl_error LIKE 'http_error: %' THEN substring(crawl_error FROM '(?:answered HTTP |redirect )([1-5][0-9][0-9])')::integer
  END,
  crawl_error = CASE
    WHEN split_part(crawl_error, ': ', 1) IN ('blocked_address', 'bad_url', 'too_many_redirects', 'timeout', 'too_large', 'not_html', 'http_error', 'network_error')
      THEN substr(crawl_error, length(split_part(crawl_error, ': ', 1)) + 3)
    ELSE crawl_error
  END
WHERE crawl_error IS NOT NULL AND crawl_error_kind IS NULL;--> statement-breakpoint
-- "attempt 2 of 3 failed: network_error: connect ECONNREFUSED 10.0.0.7:443" keeps "attempt 2 of 3 failed: network_error".
-- Updating status_note alone changes no status, so the history trigger does not fire.
UPDATE sites SET status_note = substring(status_note FROM '^(attempt [0-9]+ of [0-9]+ failed: [a-z_]+): ')
WHERE status_note ~ '^attempt [0-9]+ of [0-9]+ failed: [a-z_]+: ';--> statement-breakpoint
UPDATE site_history SET note = substring(note FROM '^(attempt [0-9]+ of [0-9]+ failed: [a-z_]+): ')
WHERE note ~ '^attempt [0-9]+ of [0-9]+ failed: [a-z_]+: ';
