CREATE TABLE "order_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"who_pays" text NOT NULL,
	"refund_platform_fee" boolean NOT NULL,
	"state" text DEFAULT 'refunding' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"by_role" text NOT NULL,
	"by_user_id" uuid,
	"provider_refund_id" text,
	"transfer_reversed_cents" integer,
	"fee_refunded_cents" integer,
	"failures" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "order_refunds_amount_check" CHECK ("order_refunds"."amount_cents" > 0),
	CONSTRAINT "order_refunds_who_pays_check" CHECK ("order_refunds"."who_pays" in ('kitchen', 'platform')),
	CONSTRAINT "order_refunds_state_check" CHECK ("order_refunds"."state" in ('refunding', 'refunded', 'failed')),
	CONSTRAINT "order_refunds_reason_check" CHECK (char_length("order_refunds"."reason") <= 300)
);
--> statement-breakpoint
DROP INDEX "ledger_entries_order_kind_key";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "entry" text DEFAULT 'order' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_request_key" ON "order_refunds" USING btree ("order_id","request_key");--> statement-breakpoint
CREATE INDEX "order_refunds_pending_idx" ON "order_refunds" USING btree ("created_at") WHERE "order_refunds"."state" = 'refunding';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_order_entry_kind_key" ON "ledger_entries" USING btree ("order_id","entry","kind");