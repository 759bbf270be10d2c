CREATE TABLE "promo_code_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"customer_id" uuid,
	"discount_cents" integer NOT NULL,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_code_uses_discount_check" CHECK ("promo_code_uses"."discount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"paid_by" text NOT NULL,
	"kitchen_id" uuid,
	"amount_off_cents" integer,
	"percent_off" integer,
	"max_discount_cents" integer,
	"min_order_cents" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"uses_count" integer DEFAULT 0 NOT NULL,
	"first_order_only" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"currency" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_paid_by_check" CHECK ("promo_codes"."paid_by" in ('platform', 'kitchen')),
	CONSTRAINT "promo_codes_kitchen_check" CHECK ("promo_codes"."paid_by" = 'platform' or "promo_codes"."kitchen_id" is not null),
	CONSTRAINT "promo_codes_code_check" CHECK ("promo_codes"."code" ~ '^[A-Z0-9-]{3,32}$'),
	CONSTRAINT "promo_codes_amount_check" CHECK (("promo_codes"."amount_off_cents" is null) <> ("promo_codes"."percent_off" is null) and coalesce("promo_codes"."amount_off_cents", 1) > 0 and coalesce("promo_codes"."percent_off", 1) between 1 and 100),
	CONSTRAINT "promo_codes_uses_check" CHECK ("promo_codes"."uses_count" >= 0 and "promo_codes"."uses_count" <= coalesce("promo_codes"."max_uses", "promo_codes"."uses_count"))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_totals_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_platform_fee_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_paid_by" text;--> statement-breakpoint
ALTER TABLE "promo_code_uses" ADD CONSTRAINT "promo_code_uses_code_id_promo_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."promo_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_uses" ADD CONSTRAINT "promo_code_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_uses" ADD CONSTRAINT "promo_code_uses_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_code_uses_order_key" ON "promo_code_uses" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "promo_code_uses_code_customer_idx" ON "promo_code_uses" USING btree ("code_id","customer_id");--> statement-breakpoint
CREATE INDEX "promo_code_uses_customer_idx" ON "promo_code_uses" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code_key" ON "promo_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "promo_codes_kitchen_idx" ON "promo_codes" USING btree ("kitchen_id");--> statement-breakpoint
CREATE INDEX "promo_codes_created_by_idx" ON "promo_codes" USING btree ("created_by");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('authorised', 'released', 'captured', 'platform_fee', 'kitchen_transfer', 'refunded', 'platform_fee_refunded', 'kitchen_transfer_reversed', 'cash_collected', 'dispute_withdrawn', 'dispute_fee', 'dispute_reinstated', 'dispute_fee_returned', 'tip', 'tip_transfer', 'tip_reversed', 'credit_spent', 'credit_fee_funded', 'credit_returned', 'credit_fee_funded_reversed', 'credit_issued', 'credit_platform_funded', 'credit_transfer', 'credit_transfer_reversed', 'discount_given', 'discount_fee_funded', 'discount_kitchen_funded', 'discount_given_reversed', 'discount_fee_funded_reversed', 'discount_kitchen_funded_reversed'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_check" CHECK ("orders"."discount_cents" between 0 and "orders"."items_cents" and ("orders"."discount_cents" = 0) = ("orders"."discount_paid_by" is null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_totals_check" CHECK ("orders"."total_cents" = "orders"."items_cents" + "orders"."delivery_fee_cents" + "orders"."fees_and_tax_cents" + "orders"."tip_cents" - "orders"."discount_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_platform_fee_check" CHECK ("orders"."platform_fee_cents" between 0 and "orders"."total_cents" + "orders"."discount_cents");