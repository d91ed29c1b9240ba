-- Each instance keeps the actors of the sessions it has seen (auth/session-cache.ts). Any change to a
-- user, its sites or its sessions, by any path (a cascade from a deleted customer or site included),
-- tells every instance through NOTIFY, sent with the change's transaction: forget this user.
CREATE FUNCTION "flowbox_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM pg_notify('flowbox_auth', OLD.user_id::text);
	ELSE
		PERFORM pg_notify('flowbox_auth', NEW.user_id::text);
		IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
			PERFORM pg_notify('flowbox_auth', OLD.user_id::text);
		END IF;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "flowbox_auth_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('flowbox_auth', OLD.id::text);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_auth_changed" AFTER UPDATE OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_auth_user_changed"();
--> statement-breakpoint
CREATE TRIGGER "user_sites_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_sites"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_auth_changed"();
--> statement-breakpoint
-- A session's last use changes on every refresh and tells nothing: only its end, or its owner, counts.
CREATE TRIGGER "sessions_auth_changed" AFTER UPDATE OF "revoked_at", "user_id" OR DELETE ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "flowbox_auth_changed"();
