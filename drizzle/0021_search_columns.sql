-- Written by hand: drizzle-kit cannot express generated columns over functions, triggers or DO blocks.
--
-- 1. A repair. Migrations 0019 and 0020 were journalled with earlier times than 0018, and drizzle's migrator runs
-- only migrations later than the last one a database ran: a database migrated to 0018 never got users.locale nor
-- menu_items.second_name. Done here when missing (a new database has them from 0019 and 0020).
ALTER TABLE users ADD COLUMN IF NOT EXISTS locale text;--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = 'menu_items' AND column_name = 'second_name') THEN
    ALTER TABLE menu_items ADD COLUMN second_name text;
    DROP INDEX IF EXISTS menu_items_item_trgm_idx;
    ALTER TABLE menu_items DROP COLUMN IF EXISTS item_search;
    ALTER TABLE menu_items ADD COLUMN item_search text
      GENERATED ALWAYS AS (hc_search_text(item || coalesce(' ' || second_name, ''))) STORED;
    CREATE INDEX menu_items_item_trgm_idx ON menu_items USING gin (item_search gin_trgm_ops);
  END IF;
END $$;--> statement-breakpoint
-- 0020 made the dishes' trigram index again with GIN's pending list, which 0008 had turned off (a search reads
-- through the unsorted list until a vacuum merges it).
ALTER INDEX menu_items_item_trgm_idx SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('menu_items_item_trgm_idx'::regclass);--> statement-breakpoint
--
-- 2. A kitchen's name and cuisine in their searchable form, together, stored like a dish's (0006): the trigram
-- index's recheck and a match's score no longer run unaccent for every name a search reads, and one column is
-- compared where two were, each more than once (a search for two common words read 1,300 kitchens in 31 ms; 18 ms
-- stored apart). The app never writes it.
ALTER TABLE kitchens
  ADD COLUMN search_name text GENERATED ALWAYS AS (hc_search_text(name || ' ' || category)) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS kitchens_name_trgm_idx;--> statement-breakpoint
DROP INDEX IF EXISTS kitchens_category_trgm_idx;--> statement-breakpoint
CREATE INDEX kitchens_search_name_trgm_idx ON kitchens USING gin (search_name gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
-- A cuisine as searched (any case): the kitchens of one cuisine, read by key, narrow a search's dishes before they
-- are scored ('pho' among Vietnamese kitchens: 60 ms reading every kitchen, 12 ms by this index).
CREATE INDEX kitchens_cuisine_idx ON kitchens (lower(category));--> statement-breakpoint
--
-- 3. The dietary tags of a kitchen's dishes, together (sorted, each once), kept by the database on every write to a
-- dish. A search by tags alone ('Vegan', nearest first) read every dish carrying the tag to learn which kitchens
-- have one (40,000 of 200,000 for 'vegan': 31 ms); it now reads the kitchens. A kitchen has a dish carrying one tag
-- exactly when the tag is here; for several tags this is only a first sieve (one dish must carry them all).
ALTER TABLE kitchens ADD COLUMN dish_dietary text[] NOT NULL DEFAULT '{}';--> statement-breakpoint
CREATE OR REPLACE FUNCTION hc_refresh_dish_dietary() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  -- The kitchens' rows first: a transaction writing the same kitchen's dishes at once commits (or rolls back)
  -- before the tags are read again, by the next statement's snapshot, so neither overwrites the other's tags. No
  -- key update: orders and dishes referring to the kitchen are not held up.
  PERFORM 1 FROM kitchens WHERE owner_id IN (SELECT kitchen_id FROM changed) ORDER BY owner_id FOR NO KEY UPDATE;
  UPDATE kitchens k SET dish_dietary = d.tags
  FROM (SELECT c.kitchen_id,
               coalesce((SELECT array_agg(DISTINCT t ORDER BY t) FROM menu_items m, unnest(m.dietary) t
                         WHERE m.kitchen_id = c.kitchen_id), '{}') AS tags
        FROM (SELECT DISTINCT kitchen_id FROM changed) c) d
  WHERE k.owner_id = d.kitchen_id AND k.dish_dietary IS DISTINCT FROM d.tags;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER menu_items_dish_dietary_insert AFTER INSERT ON menu_items
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hc_refresh_dish_dietary();--> statement-breakpoint
CREATE TRIGGER menu_items_dish_dietary_update AFTER UPDATE ON menu_items
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hc_refresh_dish_dietary();--> statement-breakpoint
CREATE TRIGGER menu_items_dish_dietary_delete AFTER DELETE ON menu_items
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hc_refresh_dish_dietary();--> statement-breakpoint
UPDATE kitchens k SET dish_dietary = coalesce((SELECT array_agg(DISTINCT t ORDER BY t) FROM menu_items m, unnest(m.dietary) t
                                              WHERE m.kitchen_id = k.owner_id), '{}');--> statement-breakpoint
--
-- 4. The dishes counting portions: the check at each kitchen's midnight (src/server/menu/portion-days.ts) runs every
-- minute on every instance, and read every dish to find the few that count (200,000 dishes: 63 ms, on PGlite in the
-- server's own thread).
CREATE INDEX menu_items_counting_portions_idx ON menu_items (kitchen_id) WHERE portions_per_day IS NOT NULL;;--> statement-breakpoint
--
-- 5. A search's candidates (src/server/search/search-queries.ts, searchParts), in one call instead of a statement
-- and a setting each: dishes, then kitchens by name or cuisine, each kind first those holding the words exactly (word
-- similarity 1: the trigram index finds them without a miss), up to max_candidates; then, if fewer, the best of at
-- most max_scanned more that are alike at `threshold` (typos, parts of words). Dishes carry every tag of `diet` and
-- belong to a kitchen of `cuisine` (any case; null: any); kitchens are of the cuisine. Each statement is planned for
-- its values (a plan made once for any words and cuisine read every kitchen by key: 800 ms).
CREATE OR REPLACE FUNCTION hc_search_candidates(q text, diet text[], cuisine text, max_candidates int, max_scanned int,
                                                threshold real)
  RETURNS TABLE (hit_kitchen uuid, hit_item text, hit_score real)
  LANGUAGE plpgsql
  SET enable_seqscan = off
  SET max_parallel_workers_per_gather = 0
  SET plan_cache_mode = force_custom_plan
  -- A plan left without its index under enable_seqscan = off costs 10^10, and JIT compiling it took 100 ms more.
  SET jit = off
  SET pg_trgm.word_similarity_threshold = 1
  AS $$
DECLARE
  words text := hc_search_text(q);
  -- The cuisine's kitchens as an array: the dishes' index by kitchen is ANDed with the trigram index's matches, so a
  -- common word among one cuisine reads only its dishes ('curry' of Indian kitchens: 50 ms reading 7,000 curries as
  -- a join, 14 ms).
  of_cuisine uuid[] := CASE WHEN cuisine IS NULL THEN NULL
                            ELSE array(SELECT owner_id FROM kitchens WHERE lower(category) = lower(cuisine)) END;
  exact int;
BEGIN
  PERFORM set_config('pg_trgm.word_similarity_threshold', '1', true);
  RETURN QUERY
    SELECT m.kitchen_id, m.item || coalesce(' · ' || m.second_name, ''), word_similarity(words, m.item_search)
    FROM menu_items m
    WHERE words <% m.item_search AND (cardinality(diet) = 0 OR m.dietary @> diet)
      AND (of_cuisine IS NULL OR m.kitchen_id = ANY (of_cuisine))
    LIMIT max_candidates;
  GET DIAGNOSTICS exact = ROW_COUNT;
  IF exact < max_candidates THEN
    PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
    -- The exact ones come again (the threshold is lower): read past them, and leave them out.
    RETURN QUERY
      SELECT c.kitchen_id, c.item, c.score FROM (
        SELECT m.kitchen_id, m.item || coalesce(' · ' || m.second_name, '') AS item,
               word_similarity(words, m.item_search) AS score
        FROM menu_items m
        WHERE words <% m.item_search AND (cardinality(diet) = 0 OR m.dietary @> diet)
          AND (of_cuisine IS NULL OR m.kitchen_id = ANY (of_cuisine))
        LIMIT max_scanned + exact) c
      WHERE c.score < 1 ORDER BY c.score DESC LIMIT max_candidates - exact;
  END IF;
  PERFORM set_config('pg_trgm.word_similarity_threshold', '1', true);
  RETURN QUERY
    SELECT k.owner_id, null::text, word_similarity(words, k.search_name)
    FROM kitchens k
    WHERE words <% k.search_name AND (cuisine IS NULL OR lower(k.category) = lower(cuisine))
    LIMIT max_candidates;
  GET DIAGNOSTICS exact = ROW_COUNT;
  IF exact < max_candidates THEN
    PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
    RETURN QUERY
      SELECT c.owner_id, null::text, c.score FROM (
        SELECT k.owner_id, word_similarity(words, k.search_name) AS score
        FROM kitchens k
        WHERE words <% k.search_name AND (cuisine IS NULL OR lower(k.category) = lower(cuisine))
        LIMIT max_scanned + exact) c
      WHERE c.score < 1 ORDER BY c.score DESC LIMIT max_candidates - exact;
  END IF;
END $$;
