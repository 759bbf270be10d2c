CREATE TABLE "document_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kitchen_documents" ADD COLUMN "image_id" uuid;--> statement-breakpoint
ALTER TABLE "kitchen_documents" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "document_files" ADD CONSTRAINT "document_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_documents" ADD CONSTRAINT "kitchen_documents_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_documents" ADD CONSTRAINT "kitchen_documents_file_id_document_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."document_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kitchen_documents" ADD CONSTRAINT "kitchen_documents_one_file_check" CHECK ("kitchen_documents"."image_id" is null or "kitchen_documents"."file_id" is null);