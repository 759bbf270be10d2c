CREATE TABLE "meal_plan_week_dishes" (
	"plan_id" uuid NOT NULL,
	"slot_date" date NOT NULL,
	"item_ids" uuid[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meal_plan_week_dishes_plan_id_slot_date_pk" PRIMARY KEY("plan_id","slot_date")
);
--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "plan_cooks_choice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "meal_plans" ADD COLUMN "budget_cents" integer;--> statement-breakpoint
ALTER TABLE "meal_plans" ADD COLUMN "cooks_choice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "meal_plan_week_dishes" ADD CONSTRAINT "meal_plan_week_dishes_plan_id_meal_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."meal_plans"("id") ON DELETE cascade ON UPDATE no action;