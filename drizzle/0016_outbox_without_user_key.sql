ALTER TABLE "notification_outbox" DROP CONSTRAINT "notification_outbox_recipient_id_users_id_fk";
