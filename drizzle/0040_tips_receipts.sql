CREATE TABLE "order_tips" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"customer_id" uuid,
	"request_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"state" text DEFAULT 'paying' NOT NULL,
	"checkout_session_id" text,
	"checkout_url" text,
	"payment_intent_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "order_tips_amount_check" CHECK ("order_tips"."amount_cents" > 0),
	CONSTRAINT "order_tips_state_check" CHECK ("order_tips"."state" in ('paying', 'paid', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "notification_outbox" DROP CONSTRAINT "notification_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_settings" DROP CONSTRAINT "notification_settings_kind_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_totals_check";--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "accepts_tips" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tip_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD COLUMN "closed_by" text;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD COLUMN "closed_reason" text;--> statement-breakpoint
ALTER TABLE "order_tips" ADD CONSTRAINT "order_tips_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_tips" ADD CONSTRAINT "order_tips_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_tips_request_key" ON "order_tips" USING btree ("order_id","request_key");--> statement-breakpoint
CREATE INDEX "order_tips_customer_idx" ON "order_tips" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "order_tips_paying_idx" ON "order_tips" USING btree ("created_at") WHERE "order_tips"."state" = 'paying';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('authorised', 'released', 'captured', 'platform_fee', 'kitchen_transfer', 'refunded', 'platform_fee_refunded', 'kitchen_transfer_reversed', 'cash_collected', 'dispute_withdrawn', 'dispute_fee', 'dispute_reinstated', 'dispute_fee_returned', 'tip', 'tip_transfer', 'tip_reversed'));--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_kind_check" CHECK ("notification_outbox"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'plan-week-failed', 'fee-change', 'order-receipt', 'order-problem'));--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_kind_check" CHECK ("notification_settings"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'plan-week-failed', 'fee-change', 'order-receipt', 'order-problem'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tip_check" CHECK ("orders"."tip_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_totals_check" CHECK ("orders"."total_cents" = "orders"."items_cents" + "orders"."delivery_fee_cents" + "orders"."fees_and_tax_cents" + "orders"."tip_cents");--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_closed_reason_check" CHECK (char_length("problem_reports"."closed_reason") <= 500);