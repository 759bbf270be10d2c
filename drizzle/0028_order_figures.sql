CREATE TABLE "dish_day_figures" (
	"kitchen_id" uuid NOT NULL,
	"menu_item_id" uuid NOT NULL,
	"day" date NOT NULL,
	"portions" integer DEFAULT 0 NOT NULL,
	"items_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dish_day_figures_kitchen_id_day_menu_item_id_pk" PRIMARY KEY("kitchen_id","day","menu_item_id")
);
--> statement-breakpoint
CREATE TABLE "kitchen_customer_figures" (
	"kitchen_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"gross_cents" integer DEFAULT 0 NOT NULL,
	"last_ordered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kitchen_customer_figures_kitchen_id_customer_id_pk" PRIMARY KEY("kitchen_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "kitchen_hour_figures" (
	"kitchen_id" uuid NOT NULL,
	"day" date NOT NULL,
	"hour" integer NOT NULL,
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
	CONSTRAINT "kitchen_hour_figures_kitchen_id_day_hour_pk" PRIMARY KEY("kitchen_id","day","hour"),
	CONSTRAINT "kitchen_hour_figures_hour_check" CHECK ("kitchen_hour_figures"."hour" between 0 and 23)
);
--> statement-breakpoint
CREATE TABLE "order_figures" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"kitchen_id" uuid NOT NULL,
	"customer_id" uuid,
	"placed_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"hour" integer NOT NULL,
	"kept" boolean NOT NULL,
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
	"ready_seconds" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dish_day_figures" ADD CONSTRAINT "dish_day_figures_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_customer_figures" ADD CONSTRAINT "kitchen_customer_figures_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_customer_figures" ADD CONSTRAINT "kitchen_customer_figures_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_hour_figures" ADD CONSTRAINT "kitchen_hour_figures_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_figures" ADD CONSTRAINT "order_figures_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kitchen_customer_figures_best_idx" ON "kitchen_customer_figures" USING btree ("kitchen_id","orders" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "kitchen_customer_figures_customer_idx" ON "kitchen_customer_figures" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "kitchen_hour_figures_day_idx" ON "kitchen_hour_figures" USING btree ("day");--> statement-breakpoint
CREATE INDEX "order_figures_kitchen_idx" ON "order_figures" USING btree ("kitchen_id","day");