CREATE TABLE "kitchen_meal_counts" (
	"kitchen_id" uuid NOT NULL,
	"period" text NOT NULL,
	"starts" date NOT NULL,
	"meals" integer NOT NULL,
	"gross_minor" integer NOT NULL,
	CONSTRAINT "kitchen_meal_counts_kitchen_id_period_starts_pk" PRIMARY KEY("kitchen_id","period","starts"),
	CONSTRAINT "kitchen_meal_counts_period_check" CHECK ("kitchen_meal_counts"."period" in ('day', 'week', 'year')),
	CONSTRAINT "kitchen_meal_counts_counts_check" CHECK ("kitchen_meal_counts"."meals" >= 0 and "kitchen_meal_counts"."gross_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "country_code" text;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "county" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "caps_day" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "caps_meals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchen_meal_counts" ADD CONSTRAINT "kitchen_meal_counts_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;