-- Building water balance (issue #29, docs/automation.md "Building water balance"): a building names
-- the zone whose flowboxes measure its main supply; its water balance is that zone's volume minus
-- the other zones'. The manager's alert thresholds live beside it, and `judge_at` is when the
-- building's next night is due to be judged by the water-balance job (one night a pass, due rows
-- only). One row per building that has any of these set.
CREATE TABLE "building_water_balance" (
	"building_id" uuid PRIMARY KEY NOT NULL REFERENCES "buildings"("id") ON DELETE CASCADE,
	"main_supply_zone_id" uuid REFERENCES "zones"("id") ON DELETE SET NULL,
	"alert_liters_per_night" integer,
	"alert_share_pct" integer,
	"judge_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "building_water_balance_main_supply_zone_id_unique" UNIQUE("main_supply_zone_id")
);
--> statement-breakpoint
CREATE INDEX "building_water_balance_due_idx" ON "building_water_balance" ("judge_at") WHERE "main_supply_zone_id" IS NOT NULL;
