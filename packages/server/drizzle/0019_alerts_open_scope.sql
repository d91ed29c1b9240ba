-- The alerts not resolved of one customer, or of some of its sites (the fleet list's open-alert
-- counts and filters, docs/fleet.md "Speed"): read by the caller's scope, not over every customer.
CREATE INDEX "alerts_open_customer_idx" ON "alerts" USING btree ("customer_id","site_id") WHERE "alerts"."state" <> 'resolved';
