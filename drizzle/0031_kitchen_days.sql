CREATE TABLE "kitchen_day_figures" (
	"kitchen_id" uuid NOT NULL,
	"day" date NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"new_customer_orders" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"declined" integer DEFAULT 0 NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	"cancelled_by_kitchen" integer DEFAULT 0 NOT NULL,
	"cancelled_by_customer" integer DEFAULT 0 NOT NULL,
	"items_cents" integer DEFAULT 0 NOT NULL,
	"gross_cents" integer DEFAULT 0 NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"accept_seconds" integer DEFAULT 0 NOT NULL,
	"ready_count" integer DEFAULT 0 NOT NULL,
	"ready_seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "kitchen_day_figures_kitchen_id_day_pk" PRIMARY KEY("kitchen_id","day")
);
--> statement-breakpoint
ALTER TABLE "kitchen_day_figures" ADD CONSTRAINT "kitchen_day_figures_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kitchen_day_figures_day_idx" ON "kitchen_day_figures" USING btree ("day");