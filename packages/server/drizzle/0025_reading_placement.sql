-- Backtest before saving (issue #29, docs/automation.md "Backtest"): each stored reading keeps where
-- detection placed it on the server's time line and whether that placement was live (clock.ts), so
-- that replaying the zone's stored readings through detection decides exactly as ingest did. Null
-- for readings stored before: replayed at the earlier of their end and their receipt, as live.
ALTER TABLE "telemetry_readings" ADD COLUMN "placed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "telemetry_readings" ADD COLUMN "placed_live" boolean;
