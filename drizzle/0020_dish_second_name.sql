ALTER TABLE "menu_items" ADD COLUMN "second_name" text;--> statement-breakpoint
-- By hand (drizzle's schema does not list the generated column, migration 0006): search reads a dish's second name
-- too. A generated column's expression cannot be changed before PostgreSQL 17: it is made again, with its index.
DROP INDEX IF EXISTS menu_items_item_trgm_idx;--> statement-breakpoint
ALTER TABLE menu_items DROP COLUMN item_search;--> statement-breakpoint
ALTER TABLE menu_items ADD COLUMN item_search text GENERATED ALWAYS AS (hc_search_text(item || coalesce(' ' || second_name, ''))) STORED;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS menu_items_item_trgm_idx ON menu_items USING gin (item_search gin_trgm_ops);
