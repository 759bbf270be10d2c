-- Search tolerant of typos (pg_trgm) and accents (unaccent), the same SQL on PostgreSQL and PGlite (which loads
-- both contrib extensions in process: src/server/db/database.ts). Written by hand: drizzle-kit cannot express
-- extensions, functions or expression indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so no index may use it. The usual way around: a wrapper
-- declared IMMUTABLE that names the dictionary and the function's schema explicitly, so it never depends on
-- search_path. Lower-cased too: searches compare this form of both sides.
CREATE OR REPLACE FUNCTION hc_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, lower(value)) $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS kitchens_name_trgm_idx ON kitchens USING gin (hc_search_text(name) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS kitchens_category_trgm_idx ON kitchens USING gin (hc_search_text(category) gin_trgm_ops);--> statement-breakpoint
-- Dishes are many: their searchable form is stored, so neither the index's recheck nor the scoring of a match
-- runs unaccent again for every matching row (a search for a common dish reads thousands). The app never writes it.
ALTER TABLE menu_items ADD COLUMN item_search text GENERATED ALWAYS AS (hc_search_text(item)) STORED;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS menu_items_item_trgm_idx ON menu_items USING gin (item_search gin_trgm_ops);
