CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid,
	"kitchen_id" uuid,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('authorised', 'released', 'captured', 'platform_fee', 'kitchen_transfer', 'refunded', 'platform_fee_refunded', 'kitchen_transfer_reversed', 'cash_collected'))
);
--> statement-breakpoint
CREATE TABLE "payment_differences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"detail" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" integer PRIMARY KEY NOT NULL,
	"finished_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_state_check";--> statement-breakpoint
DROP INDEX "orders_one_in_progress_per_customer";--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "payout_account_id" text;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "payout_state" text DEFAULT 'not-set-up' NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "accepts_cash" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_method" text DEFAULT 'cash' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_state" text DEFAULT 'cash-due' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "platform_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "authorised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_order_kind_key" ON "ledger_entries" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "ledger_entries_kitchen_idx" ON "ledger_entries" USING btree ("kitchen_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_created_idx" ON "ledger_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_differences_created_idx" ON "payment_differences" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "kitchens_payout_account_key" ON "kitchens" USING btree ("payout_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_intent_key" ON "orders" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "orders_payment_pending_idx" ON "orders" USING btree ("payment_updated_at") WHERE "orders"."payment_state" in ('awaiting-payment', 'authorised', 'capturing', 'releasing', 'refunding') or "orders"."state" = 'recieved';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_in_progress_per_customer" ON "orders" USING btree ("customer_id") WHERE "orders"."archived_at" is null and "orders"."state" in ('awaiting payment', 'recieved', 'accepted', 'preparing', 'out for delivery');--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_payout_state_check" CHECK ("kitchens"."payout_state" in ('not-set-up', 'details-needed', 'payouts-on'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method_check" CHECK ("orders"."payment_method" in ('card', 'cash'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_state_check" CHECK ("orders"."payment_state" in ('awaiting-payment', 'authorised', 'capturing', 'captured', 'releasing', 'released', 'refunding', 'refunded', 'unpaid', 'cash-due', 'cash-paid'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_platform_fee_check" CHECK ("orders"."platform_fee_cents" between 0 and "orders"."total_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_state_check" CHECK ("orders"."state" in ('awaiting payment', 'recieved', 'accepted', 'preparing', 'out for delivery', 'delivered', 'declined', 'cancelled'));