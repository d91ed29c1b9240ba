-- Each instance keeps the zone overviews it has answered (zones/overview-cache.ts). Any change to
-- what an overview shows, by any path (a device's valve state mirrored, a cascade from a deleted
-- building or site included), tells every instance through NOTIFY, sent with the change's
-- transaction: forget this zone, or every zone of this building or site.
CREATE FUNCTION "flowbox_zone_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM pg_notify('flowbox_zones', OLD.id::text);
	ELSE
		PERFORM pg_notify('flowbox_zones', NEW.id::text);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "flowbox_zone_water_points_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM pg_notify('flowbox_zones', OLD.zone_id::text);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM pg_notify('flowbox_zones', NEW.zone_id::text);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- A zone's updated_at alone changes nothing an overview shows; a device's state message that
-- repeats the mirrored state changes no column and tells nobody.
CREATE TRIGGER "zones_overview_changed" AFTER UPDATE ON "zones"
	FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "flowbox_zone_changed"();
--> statement-breakpoint
CREATE TRIGGER "zones_overview_deleted" AFTER DELETE ON "zones"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_zone_changed"();
--> statement-breakpoint
-- Buildings and sites name themselves: every zone tagged with their id is forgotten.
CREATE TRIGGER "buildings_overview_changed" AFTER UPDATE OR DELETE ON "buildings"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_zone_changed"();
--> statement-breakpoint
CREATE TRIGGER "sites_overview_changed" AFTER UPDATE OF "customer_id" OR DELETE ON "sites"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_zone_changed"();
--> statement-breakpoint
CREATE TRIGGER "water_points_overview_changed" AFTER INSERT OR DELETE OR UPDATE OF "zone_id" ON "water_points"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_zone_water_points_changed"();
