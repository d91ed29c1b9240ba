-- Leak analytics (issue 29, docs/automation.md "Leak analytics"): per zone and per building, the
-- state computed from the hourly figures after each ingest batch (packages/shared/src/automation/leaks.ts):
-- the continuous-flow hour counter, the minimum night flows and their 7-night percentile against
-- the occupants' allowance, and the water lost a day. The fleet list filters on these columns.
CREATE TABLE "zone_leaks" (
	"zone_id" uuid PRIMARY KEY NOT NULL REFERENCES "zones"("id") ON DELETE CASCADE,
	"as_of" timestamp with time zone NOT NULL,
	"continuous_hours" integer NOT NULL,
	"continuous_since" timestamp with time zone,
	"continuous_at_least" boolean NOT NULL,
	"continuous_floor_lph" double precision,
	"night_flow_lph" double precision,
	"allowance_lph" double precision NOT NULL,
	"above_allowance" boolean NOT NULL,
	"loss_lph" double precision NOT NULL,
	"loss_litres_day" double precision NOT NULL,
	"continuous_flow_days" integer NOT NULL,
	"nights" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "building_leaks" (
	"building_id" uuid PRIMARY KEY NOT NULL REFERENCES "buildings"("id") ON DELETE CASCADE,
	"as_of" timestamp with time zone NOT NULL,
	"continuous_hours" integer NOT NULL,
	"continuous_since" timestamp with time zone,
	"continuous_at_least" boolean NOT NULL,
	"continuous_floor_lph" double precision,
	"night_flow_lph" double precision,
	"allowance_lph" double precision NOT NULL,
	"above_allowance" boolean NOT NULL,
	"loss_lph" double precision NOT NULL,
	"loss_litres_day" double precision NOT NULL,
	"continuous_flow_days" integer NOT NULL,
	"nights" jsonb NOT NULL
);
