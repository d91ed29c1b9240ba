ALTER TABLE "flowboxes" ADD COLUMN "clock_offset_ms" bigint;--> statement-breakpoint
ALTER TABLE "flowboxes" ADD COLUMN "last_reading_at" timestamp with time zone;--> statement-breakpoint
-- Detection now places readings on the server's time line (docs/automation.md "Device clocks"):
-- a zone state set ahead of the server by a fast device clock before this change must not blind it.
UPDATE "zone_automation" SET "last_measured_at" = LEAST("last_measured_at", now()), "last_flow_at" = LEAST("last_flow_at", now()), "event_started_at" = LEAST("event_started_at", now());
