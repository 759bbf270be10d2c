ALTER TABLE "kitchens" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "delivery_radius_km" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "dietary" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "allergens" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "menu_items_dietary_idx" ON "menu_items" USING gin ("dietary");--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_delivery_radius_check" CHECK ("kitchens"."delivery_radius_km" between 1 and 100);--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_location_check" CHECK (("kitchens"."latitude" is null) = ("kitchens"."longitude" is null) and "kitchens"."latitude" between -90 and 90 and "kitchens"."longitude" between -180 and 180);