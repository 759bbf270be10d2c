CREATE TABLE "fee_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"commission_basis_points" integer NOT NULL,
	"effective_on" date NOT NULL,
	"operator_id" uuid,
	"operator_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_changes_commission_check" CHECK ("fee_changes"."commission_basis_points" between 0 and 10000)
);
--> statement-breakpoint
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
ALTER TABLE "notification_outbox" DROP CONSTRAINT "notification_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_settings" DROP CONSTRAINT "notification_settings_kind_check";--> statement-breakpoint
ALTER TABLE "fee_changes" ADD CONSTRAINT "fee_changes_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_overrides" ADD CONSTRAINT "rule_overrides_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_changes_effective_idx" ON "fee_changes" USING btree ("effective_on" DESC NULLS LAST,"created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "rule_overrides_target_key" ON "rule_overrides" USING btree ("scope","target","key");--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_kind_check" CHECK ("notification_outbox"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'plan-week-failed', 'fee-change'));--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_kind_check" CHECK ("notification_settings"."kind" in ('order-new', 'order-unanswered', 'order-cancelled-by-customer', 'review-new', 'reports', 'order-accepted', 'order-declined', 'order-cancelled', 'order-dispatched', 'order-delivered', 'order-refunded', 'document-expiring', 'plan-week-failed', 'fee-change'));