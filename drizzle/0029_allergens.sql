CREATE TABLE "allergy_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"allergens" text[] NOT NULL,
	"may_contain_matters" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "allergy_profiles_allergens_check" CHECK ("allergy_profiles"."allergens" <@ array['celery', 'cereals containing gluten', 'crustaceans', 'eggs', 'fish', 'lupin', 'milk', 'molluscs', 'mustard', 'tree nuts', 'peanuts', 'sesame', 'soya', 'sulphites', 'wheat']::text[])
);
--> statement-breakpoint
CREATE TABLE "dish_declarations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"menu_item_id" uuid NOT NULL,
	"contains" text[] NOT NULL,
	"may_contain" text[] NOT NULL,
	"declared" boolean NOT NULL,
	"ingredients" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "may_contain" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "allergens_declared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "ingredients" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "keeps_days" integer;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "reheating" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "contains" text[];--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "may_contain" text[];--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "allergens_declared" boolean;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "ingredients" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "keeps_days" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "reheating" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_allergies" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "allergens_acknowledged" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "allergy_profiles" ADD CONSTRAINT "allergy_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dish_declarations" ADD CONSTRAINT "dish_declarations_menu_item_id_menu_items_id_fk" FOREIGN KEY ("menu_item_id") REFERENCES "public"."menu_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dish_declarations_item_idx" ON "dish_declarations" USING btree ("menu_item_id","created_at");--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_allergens_check" CHECK ("menu_items"."allergens" <@ array['celery', 'cereals containing gluten', 'crustaceans', 'eggs', 'fish', 'lupin', 'milk', 'molluscs', 'mustard', 'tree nuts', 'peanuts', 'sesame', 'soya', 'sulphites', 'wheat']::text[] and "menu_items"."may_contain" <@ array['celery', 'cereals containing gluten', 'crustaceans', 'eggs', 'fish', 'lupin', 'milk', 'molluscs', 'mustard', 'tree nuts', 'peanuts', 'sesame', 'soya', 'sulphites', 'wheat']::text[] and not "menu_items"."allergens" && "menu_items"."may_contain");--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_keeps_days_check" CHECK ("menu_items"."keeps_days" between 0 and 30);--> statement-breakpoint
-- Hand-written (keep when regenerating): the tags dishes carried become what they contain, undeclared for the rest
-- ('Allergens not declared' until the cook answers for every allergen); that starts each dish's history.
INSERT INTO "dish_declarations" ("menu_item_id", "contains", "may_contain", "declared", "ingredients", "created_at")
SELECT "id", "allergens", '{}'::text[], false, '', "created_at" FROM "menu_items";
