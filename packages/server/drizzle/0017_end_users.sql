CREATE TABLE "claim_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"zone_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"hint" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"auto_approve" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_zones" (
	"user_id" uuid NOT NULL,
	"zone_id" uuid NOT NULL,
	CONSTRAINT "user_zones_user_id_zone_id_pk" PRIMARY KEY("user_id","zone_id")
);
--> statement-breakpoint
ALTER TABLE "registrations" ALTER COLUMN "flowbox_serial" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "zone_id" uuid;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "claim_code_id" uuid;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "confirm_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claim_codes" ADD CONSTRAINT "claim_codes_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_codes" ADD CONSTRAINT "claim_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_zones" ADD CONSTRAINT "user_zones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_zones" ADD CONSTRAINT "user_zones_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_codes_hash_unique" ON "claim_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "claim_codes_zone_idx" ON "claim_codes" USING btree ("zone_id");--> statement-breakpoint
CREATE INDEX "user_zones_zone_idx" ON "user_zones" USING btree ("zone_id");--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_claim_code_id_claim_codes_id_fk" FOREIGN KEY ("claim_code_id") REFERENCES "public"."claim_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registrations_zone_idx" ON "registrations" USING btree ("zone_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_confirm_token_unique" ON "registrations" USING btree ("confirm_token_hash");--> statement-breakpoint
-- An end user's zones are its scope, as a site manager's sites are (drizzle/0014): any change tells
-- every instance to forget the user's cached actor.
CREATE TRIGGER "user_zones_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_zones"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_auth_changed"();
