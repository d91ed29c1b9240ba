-- Webhooks of a customer (issue 33, docs/webhooks.md). A webhook is an https address, the events
-- it is told of and the secret its requests are signed with (kept readable: the server signs with
-- it). What happened is taken from the activity log as it is written: a trigger on `events` turns
-- an alert opened or resolved, a valve closed or opened and automatic closing triggered or exited
-- into a webhook event, with one delivery for each enabled webhook of the customer that asked for
-- it, in the transaction that logged it: nothing is lost, nothing is told of a change rolled back,
-- and no domain calls the webhooks. The deliveries are the durable queue, claimed with SKIP LOCKED.
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"disabled_reason" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhooks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "webhooks_customer_idx" ON "webhooks" USING btree ("customer_id");
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "webhook_events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"webhook_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"response_status" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" in ('queued', 'sending');
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");
--> statement-breakpoint
-- A time as the API writes it (toISOString), whatever the session's time zone.
CREATE FUNCTION "webhook_time"(t timestamp with time zone) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
-- One statement for every line a statement logged (a deletion logs thousands at once): the lines
-- webhooks are told of, for customers with a webhook asking for them, become events (their id the
-- log line's, so stable) and deliveries; the instances hear of them once committed.
CREATE FUNCTION "webhook_events_logged"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	WITH "logged" AS (
		SELECT n.*, CASE n."action_name"
			WHEN 'alert_opened' THEN 'alert.opened'
			WHEN 'alert_resolved' THEN 'alert.resolved'
			WHEN 'valve_closed' THEN 'valve.closed'
			WHEN 'valve_opened' THEN 'valve.opened'
			WHEN 'automatic_closing_triggered' THEN 'automatic_closing.triggered'
			WHEN 'automatic_closing_exited' THEN 'automatic_closing.exited'
		END AS "type"
		FROM "new_events" n
		WHERE n."customer_id" IS NOT NULL AND n."action_name" IN ('alert_opened', 'alert_resolved',
			'valve_closed', 'valve_opened', 'automatic_closing_triggered', 'automatic_closing_exited')
	), "wanted" AS (
		SELECT l.*, w."id" AS "webhook_id"
		FROM "logged" l JOIN "webhooks" w ON w."customer_id" = l."customer_id"
		WHERE w."enabled" AND l."type" = ANY (w."events")
	), "told" AS (
		INSERT INTO "webhook_events" ("id", "customer_id", "type", "created_at", "data")
		SELECT DISTINCT ON (l."id") l."id", l."customer_id", l."type", l."created_at",
			jsonb_build_object(
				'origin', l."origin",
				'by', l."user_name",
				'place', jsonb_build_object('site_id', l."site_id", 'building_id', l."building_id",
					'zone_id', l."zone_id", 'zone_name', z."name")
			) || CASE
				WHEN l."object_name" = 'alert' THEN jsonb_build_object('alert', jsonb_build_object(
					'id', a."id", 'category', a."category", 'cause', a."cause", 'state', a."state",
					'critical', a."category" IN ('abnormal_water_consumption_no_ac', 'abnormal_water_consumption_with_ac', 'leakage_detection'),
					'details', a."details", 'count', a."count",
					'opened_at', webhook_time(a."opened_at"), 'resolved_at', webhook_time(a."resolved_at"),
					'resolved_automatically', a."resolved_automatically",
					'flowbox_id', a."flowbox_id", 'flowbox_serial', a."flowbox_serial"))
				WHEN l."object_name" = 'flowbox' THEN jsonb_build_object('flowbox',
					jsonb_build_object('id', l."object_id", 'serial', l."object_label"))
				ELSE jsonb_build_object('trigger', l."changed_fields"->>0)
			END
		FROM "wanted" l
		LEFT JOIN "zones" z ON z."id" = l."zone_id"
		LEFT JOIN "alerts" a ON l."object_name" = 'alert' AND a."id" = l."object_id"
		RETURNING "id"
	)
	INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "status", "next_attempt_at", "created_at")
	SELECT l."webhook_id", l."id", 'queued', l."created_at", l."created_at"
	FROM "wanted" l JOIN "told" t ON t."id" = l."id";
	IF FOUND THEN
		PERFORM pg_notify('flowbox_webhooks', 'queued');
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_webhooks" AFTER INSERT ON "events"
	REFERENCING NEW TABLE AS "new_events" FOR EACH STATEMENT EXECUTE FUNCTION "webhook_events_logged"();
