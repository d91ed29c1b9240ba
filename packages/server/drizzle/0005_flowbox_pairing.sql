ALTER TABLE "flowboxes" ADD COLUMN "factory_secret_hash" text;--> statement-breakpoint
ALTER TABLE "flowboxes" ADD COLUMN "pairing_request_id" uuid;