CREATE TABLE "consumption_daily" (
	"zone_id" uuid NOT NULL,
	"day" date NOT NULL,
	"flowbox_id" uuid NOT NULL,
	"volume_ml" bigint NOT NULL,
	"flow_s" integer NOT NULL,
	"readings" integer NOT NULL,
	CONSTRAINT "consumption_daily_zone_id_day_flowbox_id_pk" PRIMARY KEY("zone_id","day","flowbox_id")
);
--> statement-breakpoint
CREATE TABLE "consumption_hourly" (
	"zone_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"flowbox_id" uuid NOT NULL,
	"volume_ml" bigint NOT NULL,
	"flow_s" integer NOT NULL,
	"readings" integer NOT NULL,
	"temperature_min" double precision,
	"temperature_max" double precision,
	"temperature_sum" double precision DEFAULT 0 NOT NULL,
	"temperature_count" integer DEFAULT 0 NOT NULL,
	"humidity_min" double precision,
	"humidity_max" double precision,
	"humidity_sum" double precision DEFAULT 0 NOT NULL,
	"humidity_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "consumption_hourly_zone_id_hour_flowbox_id_pk" PRIMARY KEY("zone_id","hour","flowbox_id")
);
--> statement-breakpoint
CREATE TABLE "telemetry_readings" (
	"flowbox_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"zone_id" uuid NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	"interval_s" integer NOT NULL,
	"volume_ml" bigint NOT NULL,
	"flow_s" integer NOT NULL,
	"temperature_c" double precision,
	"humidity_pct" double precision,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "telemetry_readings_flowbox_id_seq_pk" PRIMARY KEY("flowbox_id","seq")
);
--> statement-breakpoint
ALTER TABLE "consumption_daily" ADD CONSTRAINT "consumption_daily_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consumption_hourly" ADD CONSTRAINT "consumption_hourly_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_readings" ADD CONSTRAINT "telemetry_readings_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telemetry_readings_zone_idx" ON "telemetry_readings" USING btree ("zone_id","measured_at");