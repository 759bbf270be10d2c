CREATE TABLE "image_variants" (
	"image_id" uuid NOT NULL,
	"width" integer NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "image_variants_image_id_width_pk" PRIMARY KEY("image_id","width")
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"widths" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kitchens" ALTER COLUMN "image_link" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "menu_items" ALTER COLUMN "image_link" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "image_id" uuid;--> statement-breakpoint
ALTER TABLE "menu_items" ADD COLUMN "image_id" uuid;--> statement-breakpoint
ALTER TABLE "image_variants" ADD CONSTRAINT "image_variants_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_owner_idx" ON "images" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "images_created_at_idx" ON "images" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kitchens_image_idx" ON "kitchens" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "menu_items_image_idx" ON "menu_items" USING btree ("image_id");--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_one_picture_check" CHECK (num_nonnulls("kitchens"."image_link", "kitchens"."image_id") = 1);--> statement-breakpoint
ALTER TABLE "menu_items" ADD CONSTRAINT "menu_items_one_picture_check" CHECK (num_nonnulls("menu_items"."image_link", "menu_items"."image_id") = 1);