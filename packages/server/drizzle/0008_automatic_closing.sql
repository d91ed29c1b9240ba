CREATE TABLE "zone_automation" (
	"zone_id" uuid PRIMARY KEY NOT NULL,
	"automatic_closing_enabled" boolean DEFAULT false NOT NULL,
	"volume_margin_enabled" boolean DEFAULT false NOT NULL,
	"volume_margin" numeric(14, 4),
	"volume_margin_unit" text,
	"duration_margin_enabled" boolean DEFAULT false NOT NULL,
	"duration_margin_minutes" integer,
	"event_started_at" timestamp with time zone,
	"last_flow_at" timestamp with time zone,
	"event_volume_ml" bigint DEFAULT 0 NOT NULL,
	"event_flow_s" integer DEFAULT 0 NOT NULL,
	"event_triggered" boolean DEFAULT false NOT NULL,
	"event_leak_raised" boolean DEFAULT false NOT NULL,
	"last_measured_at" timestamp with time zone,
	"detection_blocked_until" timestamp with time zone,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"close_confirmed_at" timestamp with time zone,
	"close_dysfunction_raised" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD CONSTRAINT "zone_automation_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;