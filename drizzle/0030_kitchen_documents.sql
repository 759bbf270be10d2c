CREATE TABLE "kitchen_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kitchen_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"holder" text DEFAULT '' NOT NULL,
	"expires_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kitchen_documents_kind_check" CHECK ("kitchen_documents"."kind" in ('permit', 'food-safety-certificate', 'food-handler-card')),
	CONSTRAINT "kitchen_documents_number_check" CHECK (char_length("kitchen_documents"."number") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "notification_outbox" DROP CONSTRAINT "notification_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_settings" DROP CONSTRAINT "notification_settings_kind_check";--> statement-breakpoint
ALTER TABLE "kitchen_documents" ADD CONSTRAINT "kitchen_documents_kitchen_id_kitchens_owner_id_fk" FOREIGN KEY ("kitchen_id") REFERENCES "public"."kitchens"("owner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kitchen_documents_kitchen_idx" ON "kitchen_documents" USING btree ("kitchen_id","kind","expires_on" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "kitchen_documents_expires_idx" ON "kitchen_documents" USING btree ("expires_on");--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_kind_check" CHECK ("notification_outbox"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring'));--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_kind_check" CHECK ("notification_settings"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring'));