-- pg_trgm backs the typo-tolerant fallback of directory search (src/directory/search.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
