CREATE TABLE "problem_report_photos" (
	"report_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "problem_report_photos_report_id_image_id_pk" PRIMARY KEY("report_id","image_id"),
	CONSTRAINT "problem_report_photos_position_check" CHECK ("problem_report_photos"."position" between 0 and 2)
);
--> statement-breakpoint
CREATE TABLE "problem_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"customer_id" uuid,
	"reason" text NOT NULL,
	"dishes" jsonb NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"complaint_id" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "problem_reports_reason_check" CHECK ("problem_reports"."reason" in ('missing', 'wrong_dish', 'cold_or_spilled', 'made_ill', 'other')),
	CONSTRAINT "problem_reports_details_check" CHECK (char_length("problem_reports"."details") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "problem_report_photos" ADD CONSTRAINT "problem_report_photos_report_id_problem_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."problem_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_report_photos" ADD CONSTRAINT "problem_report_photos_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_complaint_id_reports_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "problem_report_photos_image_idx" ON "problem_report_photos" USING btree ("image_id");--> statement-breakpoint
CREATE UNIQUE INDEX "problem_reports_one_open" ON "problem_reports" USING btree ("order_id") WHERE "problem_reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "problem_reports_order_idx" ON "problem_reports" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "problem_reports_customer_idx" ON "problem_reports" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "problem_reports_complaint_idx" ON "problem_reports" USING btree ("complaint_id");--> statement-breakpoint
CREATE INDEX "problem_reports_open_idx" ON "problem_reports" USING btree ("created_at") WHERE "problem_reports"."resolved_at" is null;