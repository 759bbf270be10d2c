CREATE TABLE "order_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"author_id" uuid,
	"author_role" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_messages_role_check" CHECK ("order_messages"."author_role" in ('customer', 'kitchen')),
	CONSTRAINT "order_messages_text_check" CHECK (char_length("order_messages"."text") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "slot_bookings" (
	"kitchen_id" uuid NOT NULL,
	"slot_start" timestamp with time zone NOT NULL,
	"taken" integer NOT NULL,
	CONSTRAINT "slot_bookings_kitchen_id_slot_start_pk" PRIMARY KEY("kitchen_id","slot_start"),
	CONSTRAINT "slot_bookings_taken_check" CHECK ("slot_bookings"."taken" >= 0)
);
--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "offers_delivery" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "offers_pickup" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "pickup_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "pickup_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "takes_asap" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "slot_minutes" integer;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "prior_notice_minutes" integer DEFAULT 120 NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "days_ahead" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "same_day_cutoff" text;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "orders_per_slot" integer;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "minimum_order_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilment" text DEFAULT 'delivery' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "slot_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "slot_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "answer_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_messages" ADD CONSTRAINT "order_messages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_messages" ADD CONSTRAINT "order_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slot_bookings" ADD CONSTRAINT "slot_bookings_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_messages_order_idx" ON "order_messages" USING btree ("order_id","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_kitchen_slot_idx" ON "orders" USING btree ("kitchen_id","slot_start") WHERE "orders"."slot_start" is not null;--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_fulfilment_check" CHECK ("kitchens"."offers_delivery" or "kitchens"."offers_pickup");--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_when_check" CHECK ("kitchens"."takes_asap" or "kitchens"."slot_minutes" is not null);--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_slots_check" CHECK ("kitchens"."slot_minutes" between 15 and 240 and "kitchens"."prior_notice_minutes" between 0 and 2880 and "kitchens"."days_ahead" between 0 and 5 and "kitchens"."orders_per_slot" >= 1 and "kitchens"."minimum_order_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfilment_check" CHECK ("orders"."fulfilment" in ('delivery', 'pickup'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_slot_check" CHECK (("orders"."slot_start" is null) = ("orders"."slot_end" is null) and "orders"."slot_end" > "orders"."slot_start");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_note_check" CHECK (char_length("orders"."note") <= 300);