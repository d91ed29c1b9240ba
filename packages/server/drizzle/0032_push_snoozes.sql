-- "Snooze 1 h" from an alert's notification (issue 33, docs/push.md "Snooze"): the user is pushed
-- no alert of that category in that zone until `until`. Other categories and the emails still
-- reach them. One row per user, zone and category, moved by a later snooze; gone with the user or
-- the zone.
CREATE TABLE "push_snoozes" (
	"user_id" uuid NOT NULL,
	"zone_id" uuid NOT NULL,
	"category" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_snoozes_user_id_zone_id_category_pk" PRIMARY KEY("user_id","zone_id","category"),
	CONSTRAINT "push_snoozes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "push_snoozes_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "push_snoozes_zone_idx" ON "push_snoozes" USING btree ("zone_id");
