-- Each flowbox's count of alerts not resolved (its own, and its zone's naming no flowbox), so that
-- the provider's fleet list sorted by open alerts reads one index in order instead of counting
-- every open alert (a mass outage: ~100,000 of them). docs/fleet.md "Speed".
--
-- Triggers on every path that changes alerts or moves a flowbox only append changes (+1, -1) to
-- `fleet_open_alert_changes`: an insert locks no shared row, so raising or resolving alerts never
-- waits on, or deadlocks with, another transaction because of the counts. `fleet_open_alerts_fold`
-- adds the changes to the counts, one caller at a time (an advisory lock), a bounded batch a call:
-- the fleet list calls it before reading the order, a job every few seconds.
CREATE TABLE "fleet_open_alerts" (
	"flowbox_id" uuid PRIMARY KEY NOT NULL REFERENCES "flowboxes"("id") ON DELETE CASCADE,
	"serial" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fleet_open_alerts_order_idx" ON "fleet_open_alerts" USING btree ("n","serial");
--> statement-breakpoint
CREATE TABLE "fleet_open_alert_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"flowbox_id" uuid NOT NULL,
	"d" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fleet_open_alert_changes_flowbox_idx" ON "fleet_open_alert_changes" USING btree ("flowbox_id");
--> statement-breakpoint
-- Appends each change (a zone and a flowbox or none, +1 or -1) for the flowboxes it counts for:
-- the named flowbox, or every flowbox of the zone.
CREATE FUNCTION "fleet_open_alerts_add"("zone_ids" uuid[], "flowbox_ids" uuid[], "deltas" integer[])
RETURNS void LANGUAGE sql AS $$
	INSERT INTO "fleet_open_alert_changes" ("flowbox_id", "d")
	SELECT t."id", sum(t."d")::int FROM (
		SELECT c."flowbox_id" AS "id", c."d"
		FROM unnest("zone_ids", "flowbox_ids", "deltas") AS c("zone_id", "flowbox_id", "d")
		WHERE c."flowbox_id" IS NOT NULL
		UNION ALL
		SELECT f."id", c."d"
		FROM unnest("zone_ids", "flowbox_ids", "deltas") AS c("zone_id", "flowbox_id", "d")
		JOIN "flowboxes" f ON f."zone_id" = c."zone_id" AND c."flowbox_id" IS NULL
	) t
	GROUP BY t."id" HAVING sum(t."d") <> 0
$$;
--> statement-breakpoint
-- Adds up to `batch` changes to the counts and answers how many it took, or -1 when another
-- caller is folding (its fold covers what this one would have).
CREATE FUNCTION "fleet_open_alerts_fold"("batch" integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	taken integer;
BEGIN
	IF NOT pg_try_advisory_xact_lock(hashtextextended('flowbox:fleet_open_alerts', 0)) THEN
		RETURN -1;
	END IF;
	WITH "batch_ids" AS (
		SELECT "id" FROM "fleet_open_alert_changes" ORDER BY "id" LIMIT "batch"
	), "taken" AS (
		DELETE FROM "fleet_open_alert_changes" c USING "batch_ids" b WHERE c."id" = b."id"
		RETURNING c."flowbox_id", c."d"
	), "summed" AS (
		SELECT "flowbox_id", sum("d")::int AS "d", count(*)::int AS "rows" FROM "taken" GROUP BY "flowbox_id"
	), "applied" AS (
		UPDATE "fleet_open_alerts" k SET "n" = k."n" + s."d" FROM "summed" s
		WHERE k."flowbox_id" = s."flowbox_id" AND s."d" <> 0
	)
	SELECT coalesce(sum("rows"), 0) INTO taken FROM "summed";
	RETURN taken;
END $$;
--> statement-breakpoint
-- Recounts up to `batch` flowboxes from a random point of their ids, and appends a change for
-- each whose count (with its changes not yet added) differs from its alerts: a flowbox paired in
-- a zone at the very moment a zone-wide alert is raised there sees neither the other's row, and
-- is set right by a later pass. Answers how many it set right, or -1 when another caller holds
-- the counts.
CREATE FUNCTION "fleet_open_alerts_check"("batch" integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	fixed integer;
BEGIN
	IF NOT pg_try_advisory_xact_lock(hashtextextended('flowbox:fleet_open_alerts', 0)) THEN
		RETURN -1;
	END IF;
	WITH "slice" AS (
		SELECT k."flowbox_id",
			k."n" + coalesce((SELECT sum(c."d") FROM "fleet_open_alert_changes" c
				WHERE c."flowbox_id" = k."flowbox_id"), 0) AS "kept",
			(SELECT count(*) FROM "alerts" a WHERE a."state" <> 'resolved' AND a."flowbox_id" = k."flowbox_id")
			+ (SELECT count(*) FROM "alerts" a JOIN "flowboxes" f ON f."zone_id" = a."zone_id"
				WHERE f."id" = k."flowbox_id" AND a."state" <> 'resolved' AND a."flowbox_id" IS NULL) AS "truth"
		FROM "fleet_open_alerts" k WHERE k."flowbox_id" >= gen_random_uuid()
		ORDER BY k."flowbox_id" LIMIT "batch"
	), "wrong" AS (
		INSERT INTO "fleet_open_alert_changes" ("flowbox_id", "d")
		SELECT "flowbox_id", ("truth" - "kept")::int FROM "slice" WHERE "truth" <> "kept"
		RETURNING 1
	)
	SELECT count(*) INTO fixed FROM "wrong";
	RETURN fixed;
END $$;
--> statement-breakpoint
CREATE FUNCTION "fleet_alerts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "fleet_open_alerts_add"(array_agg("zone_id"), array_agg("flowbox_id"), array_agg(1))
	FROM "new_alerts" WHERE "state" <> 'resolved';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "fleet_alerts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "fleet_open_alerts_add"(array_agg("zone_id"), array_agg("flowbox_id"), array_agg(-1))
	FROM "old_alerts" WHERE "state" <> 'resolved';
	RETURN NULL;
END $$;
--> statement-breakpoint
-- An alert resolved or opened again, or whose flowbox or zone changed (a flowbox deleted leaves its
-- alerts to its zone): what it counted for before is taken back, what it counts for now added. An
-- update that changes none of these (a repeat, an email sent) adds nothing.
CREATE FUNCTION "fleet_alerts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "fleet_open_alerts_add"(array_agg(c."zone_id"), array_agg(c."flowbox_id"), array_agg(c."d"))
	FROM (
		SELECT o."zone_id", o."flowbox_id", -1 AS "d"
		FROM "old_alerts" o JOIN "new_alerts" n ON n."id" = o."id"
		WHERE o."state" <> 'resolved' AND (n."state" = 'resolved'
			OR n."zone_id" IS DISTINCT FROM o."zone_id" OR n."flowbox_id" IS DISTINCT FROM o."flowbox_id")
		UNION ALL
		SELECT n."zone_id", n."flowbox_id", 1
		FROM "old_alerts" o JOIN "new_alerts" n ON n."id" = o."id"
		WHERE n."state" <> 'resolved' AND (o."state" = 'resolved'
			OR n."zone_id" IS DISTINCT FROM o."zone_id" OR n."flowbox_id" IS DISTINCT FROM o."flowbox_id")
	) c;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "alerts_fleet_inserted" AFTER INSERT ON "alerts"
	REFERENCING NEW TABLE AS "new_alerts" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_alerts_inserted"();
--> statement-breakpoint
CREATE TRIGGER "alerts_fleet_deleted" AFTER DELETE ON "alerts"
	REFERENCING OLD TABLE AS "old_alerts" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_alerts_deleted"();
--> statement-breakpoint
CREATE TRIGGER "alerts_fleet_updated" AFTER UPDATE ON "alerts"
	REFERENCING OLD TABLE AS "old_alerts" NEW TABLE AS "new_alerts"
	FOR EACH STATEMENT EXECUTE FUNCTION "fleet_alerts_updated"();
--> statement-breakpoint
-- A flowbox gets its row when created (at 0), and a change for its zone's alerts naming no
-- flowbox; moved to another zone, it gives back the old zone's and takes the new one's.
CREATE FUNCTION "fleet_flowbox_placed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	d integer;
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "fleet_open_alerts" ("flowbox_id", "serial", "n") VALUES (NEW."id", NEW."serial", 0)
		ON CONFLICT ("flowbox_id") DO NOTHING;
	END IF;
	d := (SELECT count(*) FROM "alerts"
		WHERE "state" <> 'resolved' AND "flowbox_id" IS NULL AND "zone_id" = NEW."zone_id");
	IF TG_OP = 'UPDATE' THEN
		d := d - (SELECT count(*) FROM "alerts"
			WHERE "state" <> 'resolved' AND "flowbox_id" IS NULL AND "zone_id" = OLD."zone_id");
	END IF;
	IF d <> 0 THEN
		INSERT INTO "fleet_open_alert_changes" ("flowbox_id", "d") VALUES (NEW."id", d);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "flowboxes_fleet_created" AFTER INSERT ON "flowboxes"
	FOR EACH ROW EXECUTE FUNCTION "fleet_flowbox_placed"();
--> statement-breakpoint
CREATE TRIGGER "flowboxes_fleet_moved" AFTER UPDATE OF "zone_id" ON "flowboxes"
	FOR EACH ROW WHEN (OLD."zone_id" IS DISTINCT FROM NEW."zone_id") EXECUTE FUNCTION "fleet_flowbox_placed"();
--> statement-breakpoint
INSERT INTO "fleet_open_alerts" ("flowbox_id", "serial", "n")
SELECT f."id", f."serial",
	(SELECT count(*) FROM "alerts" a WHERE a."state" <> 'resolved' AND a."flowbox_id" = f."id")
	+ (SELECT count(*) FROM "alerts" a WHERE a."state" <> 'resolved' AND a."flowbox_id" IS NULL AND a."zone_id" = f."zone_id")
FROM "flowboxes" f;
