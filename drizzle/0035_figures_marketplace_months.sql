CREATE TABLE "kitchen_customer_counts" (
	"kitchen_id" uuid PRIMARY KEY NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	"returning_customers" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kitchen_month_figures" (
	"month" date NOT NULL,
	"kitchen_id" uuid NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"gross_cents" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"accept_seconds" integer DEFAULT 0 NOT NULL,
	"turned_down" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "kitchen_month_figures_month_kitchen_id_pk" PRIMARY KEY("month","kitchen_id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_day_figures" (
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
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
	"active_kitchens" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "marketplace_day_figures_day_shard_pk" PRIMARY KEY("day","shard")
);
--> statement-breakpoint
CREATE TABLE "marketplace_hour_figures" (
	"day" date NOT NULL,
	"hour" integer NOT NULL,
	"shard" smallint NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "marketplace_hour_figures_day_hour_shard_pk" PRIMARY KEY("day","hour","shard"),
	CONSTRAINT "marketplace_hour_figures_hour_check" CHECK ("marketplace_hour_figures"."hour" between 0 and 23)
);
--> statement-breakpoint
DROP INDEX "kitchen_customer_figures_best_idx";--> statement-breakpoint
ALTER TABLE "kitchen_customer_counts" ADD CONSTRAINT "kitchen_customer_counts_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_month_figures" ADD CONSTRAINT "kitchen_month_figures_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kitchen_month_figures_kitchen_idx" ON "kitchen_month_figures" USING btree ("kitchen_id");--> statement-breakpoint
CREATE INDEX "kitchen_hour_figures_heat_idx" ON "kitchen_hour_figures" USING btree ("kitchen_id","day","hour","orders");--> statement-breakpoint
CREATE INDEX "kitchen_customer_figures_best_idx" ON "kitchen_customer_figures" USING btree ("kitchen_id","orders" DESC NULLS LAST,"last_ordered_at" DESC NULLS LAST);--> statement-breakpoint
-- The new rollups from the kitchens' (a database with figures needs no rebuild).
INSERT INTO "kitchen_customer_counts" ("kitchen_id", "customers", "returning_customers")
  SELECT "kitchen_id", count(*)::int, (count(*) FILTER (WHERE "orders" > 1))::int FROM "kitchen_customer_figures"
   WHERE "orders" > 0 GROUP BY "kitchen_id";--> statement-breakpoint
INSERT INTO "kitchen_month_figures" ("month", "kitchen_id", "orders", "gross_cents", "accepted", "accept_seconds", "turned_down")
  SELECT date_trunc('month', "day")::date, "kitchen_id", sum("orders")::int, sum("gross_cents")::int, sum("accepted")::int,
         sum("accept_seconds")::int, sum("declined" + "expired" + "cancelled_by_kitchen")::int
    FROM "kitchen_day_figures" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "marketplace_day_figures" ("day", "shard", "orders", "new_customer_orders", "delivered", "accepted", "declined", "expired",
    "cancelled_by_kitchen", "cancelled_by_customer", "items_cents", "gross_cents", "refunded_cents", "accept_seconds",
    "ready_count", "ready_seconds", "active_kitchens")
  SELECT "day", (get_byte(uuid_send("kitchen_id"), 15) & 15)::smallint, sum("orders")::int, sum("new_customer_orders")::int, sum("delivered")::int, sum("accepted")::int,
         sum("declined")::int, sum("expired")::int, sum("cancelled_by_kitchen")::int, sum("cancelled_by_customer")::int,
         sum("items_cents")::int, sum("gross_cents")::int, sum("refunded_cents")::int, sum("accept_seconds")::int,
         sum("ready_count")::int, sum("ready_seconds")::int, (count(*) FILTER (WHERE "orders" > 0))::int
    FROM "kitchen_day_figures" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "marketplace_hour_figures" ("day", "hour", "shard", "orders")
  SELECT "day", "hour", (get_byte(uuid_send("kitchen_id"), 15) & 15)::smallint, sum("orders")::int FROM "kitchen_hour_figures" GROUP BY 1, 2, 3;
