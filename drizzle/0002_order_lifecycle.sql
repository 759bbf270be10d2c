CREATE TABLE "order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"state" text NOT NULL,
	"by_role" text NOT NULL,
	"by_user_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_one_open_per_customer";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "state" text DEFAULT 'recieved' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ready_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_in_progress_per_customer" ON "orders" USING btree ("customer_id") WHERE "orders"."archived_at" is null and "orders"."state" in ('recieved', 'accepted', 'preparing', 'out for delivery');--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_state_check" CHECK ("orders"."state" in ('recieved', 'accepted', 'preparing', 'out for delivery', 'delivered', 'declined', 'cancelled'));--> statement-breakpoint
INSERT INTO "order_events" ("order_id", "state", "by_role", "by_user_id", "created_at") SELECT "id", 'recieved', 'customer', "customer_id", "created_at" FROM "orders";
