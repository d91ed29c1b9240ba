CREATE TABLE "pricing_plan_ranges" (
	"version_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"volume_start" numeric(18, 4) NOT NULL,
	"volume_end" numeric(18, 4),
	"price_per_unit" numeric(18, 6) NOT NULL,
	CONSTRAINT "pricing_plan_ranges_version_id_position_pk" PRIMARY KEY("version_id","position")
);
--> statement-breakpoint
CREATE TABLE "pricing_plan_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"from_date" date NOT NULL,
	"billing_type" text NOT NULL,
	"acquisition_type" text NOT NULL,
	"currency" text NOT NULL,
	"volume_unit" text NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pricing_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"regions" jsonb NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zone_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"zone_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"service_level" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"renewal_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pricing_plan_ranges" ADD CONSTRAINT "pricing_plan_ranges_version_id_pricing_plan_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."pricing_plan_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_plan_versions" ADD CONSTRAINT "pricing_plan_versions_plan_id_pricing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."pricing_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_subscriptions" ADD CONSTRAINT "zone_subscriptions_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_subscriptions" ADD CONSTRAINT "zone_subscriptions_plan_id_pricing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."pricing_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pricing_plan_versions_plan_version_unique" ON "pricing_plan_versions" USING btree ("plan_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "pricing_plan_versions_plan_from_unique" ON "pricing_plan_versions" USING btree ("plan_id","from_date");--> statement-breakpoint
CREATE UNIQUE INDEX "zone_subscriptions_active_unique" ON "zone_subscriptions" USING btree ("zone_id") WHERE "zone_subscriptions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "zone_subscriptions_zone_idx" ON "zone_subscriptions" USING btree ("zone_id","start_date");--> statement-breakpoint
CREATE INDEX "zone_subscriptions_plan_idx" ON "zone_subscriptions" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "zone_subscriptions_renewal_idx" ON "zone_subscriptions" USING btree ("renewal_date");