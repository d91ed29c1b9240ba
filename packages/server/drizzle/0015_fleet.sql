CREATE INDEX "alerts_open_flowbox_idx" ON "alerts" USING btree ("flowbox_id") WHERE "alerts"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("name");--> statement-breakpoint
CREATE INDEX "flowboxes_serial_search_idx" ON "flowboxes" USING btree (lower("serial") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "flowboxes_last_reading_idx" ON "flowboxes" USING btree (coalesce("last_reading_at", '1970-01-01T00:00:00Z'::timestamptz),"serial");--> statement-breakpoint
CREATE INDEX "flowboxes_firmware_idx" ON "flowboxes" USING btree (coalesce("firmware_version", ''),"serial");--> statement-breakpoint
CREATE INDEX "flowboxes_model_idx" ON "flowboxes" USING btree ("model","serial");--> statement-breakpoint
CREATE INDEX "zone_automation_locked_idx" ON "zone_automation" USING btree ("zone_id") WHERE "zone_automation"."locked_at" IS NOT NULL;