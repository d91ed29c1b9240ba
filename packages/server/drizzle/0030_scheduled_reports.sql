-- Scheduled reports (issue 33, docs/reports.md). A schedule is a customer's (site_id null) or a
-- site's, weekly or monthly; `next_due_at` is the end of the next period it reports on (Monday or the
-- first of the month, 00:00 in the scope's time zone). The job claims a due schedule for
-- `lease_until` in a transaction (SKIP LOCKED), generates its report outside it, then stores it and
-- moves `next_due_at` on in another: an instance that stops mid-way leaves the schedule to the next
-- claim once the lease ends, and the unique (schedule, period) keeps a period to one report.
-- A report's files are kept in its row (a few tens of kilobytes); the last REPORTS_KEPT are kept.
CREATE TABLE "report_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"site_id" uuid,
	"name" text NOT NULL,
	"frequency" text NOT NULL,
	"formats" jsonb NOT NULL,
	"language" text NOT NULL,
	"recipient_ids" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_due_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_schedules_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "report_schedules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "report_schedules_scope_idx" ON "report_schedules" USING btree ("customer_id","site_id");
--> statement-breakpoint
CREATE INDEX "report_schedules_due_idx" ON "report_schedules" USING btree ("next_due_at") WHERE "report_schedules"."enabled";
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid,
	"customer_id" uuid NOT NULL,
	"site_id" uuid,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"language" text NOT NULL,
	"csv" bytea,
	"pdf" bytea,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	CONSTRAINT "reports_schedule_id_report_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "reports_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "reports_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reports_schedule_period_idx" ON "reports" USING btree ("schedule_id","period_from") WHERE "reports"."schedule_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "reports_scope_idx" ON "reports" USING btree ("customer_id","site_id","created_at");
