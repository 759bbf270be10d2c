ALTER TABLE "kitchens" ADD COLUMN "listing" text DEFAULT 'listed' NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "listing_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "kitchens" ADD COLUMN "listing_decided_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "kitchens_awaiting_approval_idx" ON "kitchens" USING btree ("created_at") WHERE "kitchens"."listing" = 'awaiting-approval';--> statement-breakpoint
ALTER TABLE "kitchens" ADD CONSTRAINT "kitchens_listing_check" CHECK ("kitchens"."listing" in ('listed', 'awaiting-approval', 'changes-asked', 'refused', 'not-allowed'));