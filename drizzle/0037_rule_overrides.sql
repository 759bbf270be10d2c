CREATE TABLE "rule_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"target" text NOT NULL,
	"key" text NOT NULL,
	"value" integer,
	"reason" text NOT NULL,
	"operator_id" uuid,
	"operator_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rule_overrides_scope_check" CHECK ("rule_overrides"."scope" in ('profile', 'kitchen')),
	CONSTRAINT "rule_overrides_key_check" CHECK ("rule_overrides"."key" in ('mealsPerDay', 'mealsPerWeek', 'grossPerYear')),
	CONSTRAINT "rule_overrides_value_check" CHECK ("rule_overrides"."value" is null or "rule_overrides"."value" >= 1)
);
--> statement-breakpoint
ALTER TABLE "rule_overrides" ADD CONSTRAINT "rule_overrides_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_overrides_target_key" ON "rule_overrides" USING btree ("scope","target","key");