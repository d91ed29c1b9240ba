-- Detection takes each flowbox's readings in seq order (issue #29, docs/automation.md "Whatever the
-- delivery"): the zone's row keeps each flowbox's last seq fed without a hole (`seqs`) and the
-- readings seen past a hole (`held`), which wait for it until `held_until` (then the sweep, the
-- `held_readings` job, takes the hole as lost). They replace the run of flow-free readings kept for
-- the flowbox that flowed last (`last_flow_free_seq`, `flow_free_ahead`).
ALTER TABLE "zone_automation" DROP COLUMN "last_flow_free_seq";
--> statement-breakpoint
ALTER TABLE "zone_automation" DROP COLUMN "flow_free_ahead";
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "seqs" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "held" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "held_until" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "zone_automation_held_idx" ON "zone_automation" USING btree ("held_until") WHERE "zone_automation"."held_until" IS NOT NULL;
