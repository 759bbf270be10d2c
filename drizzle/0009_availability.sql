CREATE TABLE "dish_portions" (
	"menu_item_id" uuid NOT NULL,
	"day" date NOT NULL,
	"taken" integer NOT NULL,
	CONSTRAINT "dish_portions_menu_item_id_day_pk" PRIMARY KEY("menu_item_id","day"),
	CONSTRAINT "dish_portions_taken_check" CHECK ("dish_portions"."taken" >= 0)
);
--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "opening_hours" jsonb;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "sold_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "portions_per_day" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "portions_day" date;--> statement-breakpoint
ALTER TABLE "dish_portions" ADD CONSTRAINT "dish_portions_menu_item_id_menu_items_id_fk" FOREIGN KEY ("menu_item_id") REFERENCES "public"."menu_items"("id") ON DELETE cascade ON UPDATE no action;