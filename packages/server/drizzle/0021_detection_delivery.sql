-- Detection whatever the delivery (issue #29, docs/automation.md "Whatever the delivery"): the gaps
-- between one flowbox's readings are judged on its own clock, so the zone's row keeps which flowbox
-- flowed last, its seq, how far its flow-free readings after it run without a hole (and those seen past a hole), and its device
-- time; a crossing is noted when it happens and acted on only
-- while the water runs (`event_crossing`, with `event_triggered` once acted on).
ALTER TABLE "zone_automation" ADD COLUMN "last_flow_flowbox_id" uuid;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "last_flow_seq" bigint;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "last_flow_free_seq" bigint;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "flow_free_ahead" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "last_flow_device_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "last_flow_live" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "zone_automation" ADD COLUMN "event_crossing" jsonb;
