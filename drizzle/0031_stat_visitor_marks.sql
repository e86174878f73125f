-- The local statistics engine's visitor marks (docs/stats.md "A few per client and day"): per UTC day, a keyed
-- hash of who was counted for what and how many events reached it. UNLOGGED, by hand (drizzle-kit has no word
-- for it): the rows never reach the write-ahead log, so no backup, replica or point-in-time restore holds them,
-- and only today's exist at all (every write deletes earlier days). A crash empties the table; each client may
-- then be counted once more up to its bound that day.
CREATE UNLOGGED TABLE "stat_visitor_marks" (
	"day" date NOT NULL,
	"mark" "bytea" NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "stat_visitor_marks_day_mark_pk" PRIMARY KEY("day","mark")
);
