CREATE TABLE "firmware_image_customers" (
	"image_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	CONSTRAINT "firmware_image_customers_image_id_customer_id_pk" PRIMARY KEY("image_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "firmware_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"version" text NOT NULL,
	"models" jsonb NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"notes_en" text,
	"notes_fr" text,
	"status" text NOT NULL,
	"released_to_all" boolean NOT NULL,
	"uploaded_by" uuid,
	"uploaded_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_rollouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"customer_id" uuid,
	"site_id" uuid,
	"building_id" uuid,
	"zone_id" uuid,
	"label" text NOT NULL,
	"from_versions" jsonb,
	"models" jsonb NOT NULL,
	"waves_pct" jsonb NOT NULL,
	"start_jitter_s" integer NOT NULL,
	"max_concurrent" integer NOT NULL,
	"failure_threshold_pct" double precision NOT NULL,
	"during_opening_hours" boolean NOT NULL,
	"state" text NOT NULL,
	"halt_reason" text,
	"current_wave" integer DEFAULT 1 NOT NULL,
	"total" integer NOT NULL,
	"created_by" uuid,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "firmware_update_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"update_id" uuid NOT NULL,
	"state" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"progress_pct" double precision,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "firmware_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flowbox_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"rollout_id" uuid,
	"wave" smallint,
	"from_version" text,
	"target_version" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"progress_pct" double precision,
	"bytes" integer,
	"command_id" uuid,
	"download_attempts" integer DEFAULT 0 NOT NULL,
	"start_after" timestamp with time zone,
	"origin" text NOT NULL,
	"requested_by" uuid,
	"requested_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state_changed_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "firmware_image_customers" ADD CONSTRAINT "firmware_image_customers_image_id_firmware_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."firmware_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_image_customers" ADD CONSTRAINT "firmware_image_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_images" ADD CONSTRAINT "firmware_images_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_image_id_firmware_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."firmware_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_update_steps" ADD CONSTRAINT "firmware_update_steps_update_id_firmware_updates_id_fk" FOREIGN KEY ("update_id") REFERENCES "public"."firmware_updates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_updates" ADD CONSTRAINT "firmware_updates_flowbox_id_flowboxes_id_fk" FOREIGN KEY ("flowbox_id") REFERENCES "public"."flowboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_updates" ADD CONSTRAINT "firmware_updates_image_id_firmware_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."firmware_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_updates" ADD CONSTRAINT "firmware_updates_rollout_id_firmware_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."firmware_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_updates" ADD CONSTRAINT "firmware_updates_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_image_customers_customer_idx" ON "firmware_image_customers" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_images_sha256_idx" ON "firmware_images" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "firmware_images_version_idx" ON "firmware_images" USING btree ("version");--> statement-breakpoint
CREATE INDEX "firmware_rollouts_customer_idx" ON "firmware_rollouts" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "firmware_rollouts_running_idx" ON "firmware_rollouts" USING btree ("id") WHERE "firmware_rollouts"."state" = 'running';--> statement-breakpoint
CREATE INDEX "firmware_update_steps_update_idx" ON "firmware_update_steps" USING btree ("update_id","at");--> statement-breakpoint
CREATE INDEX "firmware_updates_flowbox_idx" ON "firmware_updates" USING btree ("flowbox_id","created_at");--> statement-breakpoint
CREATE INDEX "firmware_updates_rollout_idx" ON "firmware_updates" USING btree ("rollout_id","wave","state");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_updates_one_running" ON "firmware_updates" USING btree ("flowbox_id") WHERE "firmware_updates"."state" IN ('requested', 'requesting', 'started', 'downloaded');--> statement-breakpoint
CREATE INDEX "firmware_updates_active_idx" ON "firmware_updates" USING btree ("state_changed_at") WHERE "firmware_updates"."state" IN ('requested', 'requesting', 'started', 'downloaded');--> statement-breakpoint
CREATE INDEX "firmware_updates_scheduled_idx" ON "firmware_updates" USING btree ("rollout_id","start_after") WHERE "firmware_updates"."state" = 'scheduled';