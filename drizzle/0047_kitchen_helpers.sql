CREATE TABLE "kitchen_helpers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kitchen_id" uuid NOT NULL,
	"name" text NOT NULL,
	"started_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kitchen_helpers_name_check" CHECK (char_length("kitchen_helpers"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "notification_outbox" DROP CONSTRAINT "notification_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_settings" DROP CONSTRAINT "notification_settings_kind_check";--> statement-breakpoint
ALTER TABLE "kitchen_helpers" ADD CONSTRAINT "kitchen_helpers_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kitchen_helpers_name_key" ON "kitchen_helpers" USING btree ("kitchen_id",lower("name"));--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_kind_check" CHECK ("notification_outbox"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'helper-card-due', 'plan-week-failed', 'plan-week-reminder', 'plan-card-needs-you', 'fee-change', 'order-receipt', 'order-problem'));--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_kind_check" CHECK ("notification_settings"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'helper-card-due', 'plan-week-failed', 'plan-week-reminder', 'plan-card-needs-you', 'fee-change', 'order-receipt', 'order-problem'));