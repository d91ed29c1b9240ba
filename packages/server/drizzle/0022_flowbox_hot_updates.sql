-- Ingest updates each flowbox's row once per telemetry batch; PostgreSQL can do that in place (a HOT
-- update: no new index entries) only when no indexed column changes (docs/performance.md "Ingest",
-- fourth pass). The fleet list's last-reading index (0015) was on `last_reading_at`, which every
-- batch moves, so no update was HOT. The index now reads the minute of the last reading, which the
-- list shows (HH:mm), kept by PostgreSQL in a generated column: the row changes its index entries
-- once a minute at most, and the list sorts by the minute shown, ties by serial.
ALTER TABLE "flowboxes" ADD COLUMN "last_reading_minute" timestamp with time zone
  GENERATED ALWAYS AS (date_trunc('minute', "last_reading_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') STORED;
--> statement-breakpoint
DROP INDEX "flowboxes_last_reading_idx";
--> statement-breakpoint
CREATE INDEX "flowboxes_last_reading_idx" ON "flowboxes" USING btree (coalesce("last_reading_minute", '1970-01-01T00:00:00Z'::timestamptz),"serial");
--> statement-breakpoint
-- Room on each page for the new version of a row updated in place: without it a full page sends
-- the update to another page, which is never HOT. The rows of these two tables are written on every
-- telemetry batch (a flowbox's latest figures, a zone's detection state).
ALTER TABLE "flowboxes" SET (fillfactor = 80);
--> statement-breakpoint
ALTER TABLE "zone_automation" SET (fillfactor = 80);
