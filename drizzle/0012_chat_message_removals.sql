CREATE TABLE "chat_message_removals" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "chat_message_removals_removed_idx" ON "chat_message_removals" USING btree ("removed_at");