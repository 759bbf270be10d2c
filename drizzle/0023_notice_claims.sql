ALTER TABLE "notification_outbox" ADD COLUMN "pushed_to" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD COLUMN "claim_token" uuid;