-- The resident's own app (issue 33). Away mode: a zone's period away (from, until), whether the
-- water closes at the first flow, who set it and when, and when it closed the water in this
-- period (once a period); on the zone's automation row, which every telemetry batch already locks
-- and reads, so detection judges away mode without another query. "Was this you?": each person's
-- answer to a leak or abnormal-use alert, one per person and alert (a new answer replaces theirs),
-- with the zone and time kept for the zone's sums over the last 90 days.
ALTER TABLE "zone_automation" ADD COLUMN "away_from" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "away_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "away_close_on_flow" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "away_set_by_name" text;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "away_set_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "away_closed_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "alert_answers" (
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"user_name" text NOT NULL,
	"zone_id" uuid NOT NULL,
	"answer" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_answers_alert_id_user_id_pk" PRIMARY KEY("alert_id","user_id"),
	CONSTRAINT "alert_answers_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "alert_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "alert_answers_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "alert_answers_zone_idx" ON "alert_answers" USING btree ("zone_id","answered_at");
