-- Raw readings for a fleet of years (issue #32, docs/decisions.md "Raw readings: weekly partitions,
-- kept 90 days"): telemetry_readings becomes a table partitioned by week of `measured_at` (native
-- range partitioning), so that readings past TELEMETRY_RAW_RETENTION_DAYS go by dropping a
-- partition, never by deleting rows; hourly and daily figures stay for years. Rows are narrower:
-- a flowbox is named by a small integer key (`flowboxes.num`) instead of its uuid, volumes fit an
-- integer (at most 25 L/s over 3600 s: 9·10⁷ mL), temperature and humidity are single precision,
-- and the columns are ordered widest first (no padding). The primary key takes the partition key:
-- a reading is stored once per (flowbox, seq, at), and a redelivery, which the protocol builds
-- exactly as first sent (same seq, same at), is still one row. The partitions are made by the
-- server (telemetry/reading-partitions.repo.ts) ahead of time; the default partition takes what no
-- partition covers (here: every reading stored before), and the server moves its rows into weekly
-- partitions a week at a time.
ALTER TABLE "flowboxes" ADD COLUMN "num" integer GENERATED ALWAYS AS IDENTITY;
--> statement-breakpoint
CREATE UNIQUE INDEX "flowboxes_num_idx" ON "flowboxes" USING btree ("num");
--> statement-breakpoint
ALTER TABLE "telemetry_readings" RENAME TO "telemetry_readings_before_0027";
--> statement-breakpoint
ALTER TABLE "telemetry_readings_before_0027" RENAME CONSTRAINT "telemetry_readings_flowbox_id_seq_pk" TO "telemetry_readings_before_0027_pk";
--> statement-breakpoint
ALTER INDEX "telemetry_readings_zone_idx" RENAME TO "telemetry_readings_before_0027_zone_idx";
--> statement-breakpoint
CREATE TABLE "telemetry_readings" (
	"seq" bigint NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"placed_at" timestamp with time zone,
	"zone_id" uuid NOT NULL,
	"flowbox_num" integer NOT NULL,
	"interval_s" integer NOT NULL,
	"volume_ml" integer NOT NULL,
	"flow_s" integer NOT NULL,
	"temperature_c" real,
	"humidity_pct" real,
	"placed_live" boolean,
	CONSTRAINT "telemetry_readings_pk" PRIMARY KEY ("flowbox_num", "seq", "measured_at")
) PARTITION BY RANGE ("measured_at");
--> statement-breakpoint
ALTER TABLE "telemetry_readings" ADD CONSTRAINT "telemetry_readings_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "telemetry_readings_zone_idx" ON "telemetry_readings" USING btree ("zone_id", "measured_at");
--> statement-breakpoint
CREATE TABLE "telemetry_readings_default" PARTITION OF "telemetry_readings" DEFAULT;
--> statement-breakpoint
INSERT INTO "telemetry_readings" (seq, measured_at, received_at, placed_at, zone_id, flowbox_num, interval_s,
	volume_ml, flow_s, temperature_c, humidity_pct, placed_live)
SELECT r.seq, r.measured_at, r.received_at, r.placed_at, r.zone_id, f.num, r.interval_s, r.volume_ml, r.flow_s,
	r.temperature_c, r.humidity_pct, r.placed_live
FROM "telemetry_readings_before_0027" r JOIN "flowboxes" f ON f.id = r.flowbox_id;
--> statement-breakpoint
DROP TABLE "telemetry_readings_before_0027";
