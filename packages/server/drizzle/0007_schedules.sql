CREATE TABLE "schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid,
	"zone_id" uuid NOT NULL,
	"label" text NOT NULL,
	"occurrence_start" timestamp with time zone NOT NULL,
	"occurrence_end" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"close_commands" integer NOT NULL,
	"opened_at" timestamp with time zone,
	"open_outcome" text
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"zone_id" uuid NOT NULL,
	"label" text NOT NULL,
	"date_start" date NOT NULL,
	"date_end" date NOT NULL,
	"closing_time" text NOT NULL,
	"opening_time" text NOT NULL,
	"recurring" boolean NOT NULL,
	"frequency" text,
	"interval" integer DEFAULT 1 NOT NULL,
	"weekdays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_occurrence_unique" ON "schedule_runs" USING btree ("schedule_id","occurrence_start");--> statement-breakpoint
CREATE INDEX "schedule_runs_open_due_idx" ON "schedule_runs" USING btree ("occurrence_end") WHERE "schedule_runs"."opened_at" IS NULL;--> statement-breakpoint
CREATE INDEX "schedule_runs_zone_idx" ON "schedule_runs" USING btree ("zone_id","occurrence_end");--> statement-breakpoint
CREATE INDEX "schedules_zone_idx" ON "schedules" USING btree ("zone_id");