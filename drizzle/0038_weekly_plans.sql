CREATE TABLE "meal_plan_weeks" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"slot_date" date NOT NULL,
	"state" text NOT NULL,
	"order_id" uuid,
	"reason_code" text,
	"reason" text,
	"reason_values" jsonb,
	"held_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meal_plan_weeks_plan_id_slot_date_pk" PRIMARY KEY("plan_id","slot_date"),
	CONSTRAINT "meal_plan_weeks_state_check" CHECK ("meal_plan_weeks"."state" in ('skipped', 'placing', 'placed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "meal_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"kitchen_id" uuid NOT NULL,
	"weekday" text NOT NULL,
	"slot_time" text NOT NULL,
	"item_ids" uuid[] NOT NULL,
	"fulfilment" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"location" jsonb,
	"note" text DEFAULT '' NOT NULL,
	"allergens_acknowledged" text[] DEFAULT '{}'::text[] NOT NULL,
	"payment_method" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"starts_on" date NOT NULL,
	"paused_until" date,
	"paused_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meal_plans_status_check" CHECK ("meal_plans"."status" in ('active', 'cancelled')),
	CONSTRAINT "meal_plans_weekday_check" CHECK ("meal_plans"."weekday" in ('sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat')),
	CONSTRAINT "meal_plans_slot_time_check" CHECK ("meal_plans"."slot_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "meal_plans_fulfilment_check" CHECK ("meal_plans"."fulfilment" in ('delivery', 'pickup')),
	CONSTRAINT "meal_plans_payment_check" CHECK ("meal_plans"."payment_method" in ('card', 'cash')),
	CONSTRAINT "meal_plans_items_check" CHECK (cardinality("meal_plans"."item_ids") between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "notification_outbox" DROP CONSTRAINT "notification_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_settings" DROP CONSTRAINT "notification_settings_kind_check";--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "plans_offered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "plan_cutoff_hours" integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE "meal_plan_weeks" ADD CONSTRAINT "meal_plan_weeks_plan_id_meal_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."meal_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meal_plan_weeks" ADD CONSTRAINT "meal_plan_weeks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meal_plans" ADD CONSTRAINT "meal_plans_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meal_plans" ADD CONSTRAINT "meal_plans_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meal_plan_weeks_id_key" ON "meal_plan_weeks" USING btree ("id");--> statement-breakpoint
CREATE INDEX "meal_plan_weeks_order_idx" ON "meal_plan_weeks" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "meal_plans_customer_idx" ON "meal_plans" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "meal_plans_active_kitchen_idx" ON "meal_plans" USING btree ("kitchen_id") WHERE "meal_plans"."status" = 'active';--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_plan_cutoff_check" CHECK ("kitchens"."plan_cutoff_hours" between 1 and 120);--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_kind_check" CHECK ("notification_outbox"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'plan-week-failed'));--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_kind_check" CHECK ("notification_settings"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'plan-week-failed'));