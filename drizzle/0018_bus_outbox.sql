CREATE TABLE "bus_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The change bus over NATS (src/server/live/nats-bus.ts): a bus message sent with a write is a row of the outbox,
-- inserted by the write's own statement or transaction. A function, so that a write that is one statement can send
-- it as a select-list expression, as it does pg_notify with the default bus. Written by hand: drizzle-kit cannot
-- express functions.
CREATE OR REPLACE FUNCTION hc_bus_publish(payload text) RETURNS void
  LANGUAGE sql VOLATILE
  AS $$ INSERT INTO bus_outbox (payload) VALUES (payload) $$;
