CREATE TABLE "alert_category_settings" (
	"category" text PRIMARY KEY NOT NULL,
	"subject_en" text NOT NULL,
	"subject_fr" text NOT NULL,
	"enabled" boolean NOT NULL,
	"premium_only" boolean NOT NULL,
	"email" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"cause" text NOT NULL,
	"state" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"customer_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"building_id" uuid NOT NULL,
	"zone_id" uuid NOT NULL,
	"flowbox_id" uuid,
	"flowbox_serial" text,
	"opened_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"silenced_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolved_by_name" text,
	"resolved_automatically" boolean DEFAULT false NOT NULL,
	"emailed_at" timestamp with time zone,
	"email_rounds" integer DEFAULT 0 NOT NULL,
	"notify_due_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "flowbox_monitoring" (
	"flowbox_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"status" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flowbox_monitoring_flowbox_id_metric_pk" PRIMARY KEY("flowbox_id","metric")
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_flowbox_id_flowboxes_id_fk" FOREIGN KEY ("flowbox_id") REFERENCES "public"."flowboxes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flowbox_monitoring" ADD CONSTRAINT "flowbox_monitoring_flowbox_id_flowboxes_id_fk" FOREIGN KEY ("flowbox_id") REFERENCES "public"."flowboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_per_cause" ON "alerts" USING btree ("zone_id","cause") WHERE "alerts"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_customer_idx" ON "alerts" USING btree ("customer_id","last_seen_at");--> statement-breakpoint
CREATE INDEX "alerts_site_idx" ON "alerts" USING btree ("site_id","state");--> statement-breakpoint
CREATE INDEX "alerts_notify_due_idx" ON "alerts" USING btree ("notify_due_at");