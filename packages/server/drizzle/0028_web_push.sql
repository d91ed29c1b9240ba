-- Web Push of critical alerts (issue 33, docs/push.md). Each browser a user allowed notifications
-- in is one subscription (its endpoint unique: a browser signed in as another user moves to them),
-- deleted when its push service answers 404 or 410. The messages are the delivery queue, claimed
-- with SKIP LOCKED like the emails, and keep when the push service accepted each one: with the
-- alert's time, the "reading → notification sent" figure. An alert opened in a pushed category
-- waits in `alert_pushes` for the instance that hears of it (or the alert job) to queue its messages.
-- A table of its own, not a column of alerts: queueing never writes the alert again.
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp with time zone,
	"failure_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions" USING btree ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "push_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"alert_id" uuid,
	"payload" text NOT NULL,
	"urgency" text NOT NULL,
	"ttl_s" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"error" text,
	"reading_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "push_messages_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "push_messages_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "push_messages_due_idx" ON "push_messages" USING btree ("next_attempt_at") WHERE "push_messages"."status" in ('queued', 'sending');
--> statement-breakpoint
CREATE INDEX "push_messages_alert_idx" ON "push_messages" USING btree ("alert_id");
--> statement-breakpoint
CREATE INDEX "push_messages_subscription_idx" ON "push_messages" USING btree ("subscription_id");
--> statement-breakpoint
CREATE TABLE "alert_pushes" (
	"alert_id" uuid PRIMARY KEY NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_pushes_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "alert_pushes_opened_idx" ON "alert_pushes" USING btree ("opened_at");
