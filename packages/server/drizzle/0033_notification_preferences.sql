-- How each person is told of alerts (issue 33, docs/alerts.md "How each person is told" and
-- "Escalation"): their channels per severity and quiet hours (null: the defaults), who opened which
-- alert, and each critical alert's next escalation.
ALTER TABLE "users" ADD COLUMN "notification_preferences" jsonb;
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "escalate_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "escalation_stage" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "alerts_escalate_idx" ON "alerts" USING btree ("escalate_at") WHERE "alerts"."escalate_at" is not null;
--> statement-breakpoint
CREATE TABLE "alert_opens" (
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_opens_alert_id_user_id_pk" PRIMARY KEY("alert_id","user_id"),
	CONSTRAINT "alert_opens_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "alert_opens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "alert_opens_user_idx" ON "alert_opens" USING btree ("user_id");
