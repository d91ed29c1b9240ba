CREATE TABLE "device_commands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flowbox_id" uuid NOT NULL,
	"name" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"issued_by" uuid,
	"issued_by_name" text,
	"origin" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"result" jsonb,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "flowbox_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"flowbox_id" uuid,
	"secret_hash" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "flowbox_receipts" (
	"flowbox_id" uuid NOT NULL,
	"sequence" bigint NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flowbox_receipts_flowbox_id_sequence_pk" PRIMARY KEY("flowbox_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "flowboxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"zone_id" uuid NOT NULL,
	"floor_id" uuid,
	"pairing_state" text NOT NULL,
	"paired_at" timestamp with time zone,
	"model" text,
	"water_temperature" text,
	"connected" boolean DEFAULT false NOT NULL,
	"connection_changed_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"temperature" numeric(6, 2),
	"humidity" numeric(5, 2),
	"flow_lpm" numeric(12, 4),
	"flowmeter_index_l" numeric(18, 3),
	"valve" text,
	"maintenance_mode" boolean,
	"leak_detection_mode" boolean,
	"network_interface" text,
	"network_address" text,
	"network_gateway" text,
	"wifi_ssid" text,
	"esp_version" text,
	"board_version" text,
	"firmware_version" text,
	"last_sequence" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_flowbox_id_flowboxes_id_fk" FOREIGN KEY ("flowbox_id") REFERENCES "public"."flowboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flowbox_credentials" ADD CONSTRAINT "flowbox_credentials_flowbox_id_flowboxes_id_fk" FOREIGN KEY ("flowbox_id") REFERENCES "public"."flowboxes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flowbox_receipts" ADD CONSTRAINT "flowbox_receipts_flowbox_id_flowboxes_id_fk" FOREIGN KEY ("flowbox_id") REFERENCES "public"."flowboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flowboxes" ADD CONSTRAINT "flowboxes_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flowboxes" ADD CONSTRAINT "flowboxes_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_flowbox_idx" ON "device_commands" USING btree ("flowbox_id","issued_at");--> statement-breakpoint
CREATE INDEX "device_commands_due_idx" ON "device_commands" USING btree ("next_attempt_at") WHERE "device_commands"."status" IN ('pending', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX "flowbox_credentials_live_unique" ON "flowbox_credentials" USING btree ("serial") WHERE "flowbox_credentials"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "flowbox_credentials_flowbox_idx" ON "flowbox_credentials" USING btree ("flowbox_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flowboxes_serial_unique" ON "flowboxes" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "flowboxes_zone_idx" ON "flowboxes" USING btree ("zone_id");--> statement-breakpoint
CREATE INDEX "flowboxes_floor_idx" ON "flowboxes" USING btree ("floor_id");--> statement-breakpoint
CREATE INDEX "flowboxes_connected_idx" ON "flowboxes" USING btree ("connected","last_seen_at");