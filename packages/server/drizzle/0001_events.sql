CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"action_name" text NOT NULL,
	"object_name" text NOT NULL,
	"object_id" uuid,
	"object_label" text NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"origin" text NOT NULL,
	"customer_id" uuid,
	"site_id" uuid,
	"building_id" uuid,
	"zone_id" uuid,
	"changed_fields" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_customer_idx" ON "events" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_site_idx" ON "events" USING btree ("site_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_building_idx" ON "events" USING btree ("building_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_zone_idx" ON "events" USING btree ("zone_id","created_at","id");