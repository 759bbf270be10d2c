CREATE TABLE "credit_accounts" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_accounts_balance_check" CHECK ("credit_accounts"."balance_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"entry" text NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_entries_kind_check" CHECK ("credit_entries"."kind" in ('refund', 'spent', 'returned')),
	CONSTRAINT "credit_entries_amount_check" CHECK ("credit_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "credit_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_transfer_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_transfer_reversed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD COLUMN "refund_as" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_customer_id_credit_accounts_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."credit_accounts"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_entry_key" ON "credit_entries" USING btree ("customer_id","entry");--> statement-breakpoint
CREATE INDEX "credit_entries_customer_idx" ON "credit_entries" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_entries_order_idx" ON "credit_entries" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('authorised', 'released', 'captured', 'platform_fee', 'kitchen_transfer', 'refunded', 'platform_fee_refunded', 'kitchen_transfer_reversed', 'cash_collected', 'dispute_withdrawn', 'dispute_fee', 'dispute_reinstated', 'dispute_fee_returned', 'tip', 'tip_transfer', 'tip_reversed', 'credit_spent', 'credit_fee_funded', 'credit_returned', 'credit_fee_funded_reversed', 'credit_issued', 'credit_platform_funded', 'credit_transfer', 'credit_transfer_reversed'));--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_credit_check" CHECK ("order_refunds"."credit_cents" between 0 and "order_refunds"."amount_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_credit_check" CHECK ("orders"."credit_cents" between 0 and "orders"."total_cents");--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_refund_as_check" CHECK ("problem_reports"."refund_as" in ('card', 'credit'));