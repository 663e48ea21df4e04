-- Sign-in state the instances cache: who must forget what.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- Each instance keeps recently checked sessions in memory; any change to a session, a user or a
-- company tells every instance (LISTEN cw_auth) which entries to forget, at commit.
CREATE OR REPLACE FUNCTION cw_notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cw_auth', TG_ARGV[0] || ':' || OLD.id::text);
  RETURN NULL;
END;
$$;

-- A session's touch (last_seen_at) changes nothing a cached entry relies on: entries lapse before the next touch.
CREATE OR REPLACE TRIGGER sessions_auth_change AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.token_hash IS DISTINCT FROM NEW.token_hash OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION cw_notify_auth_change('s');

CREATE OR REPLACE TRIGGER sessions_auth_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION cw_notify_auth_change('s');

CREATE OR REPLACE TRIGGER users_auth_change AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION cw_notify_auth_change('u');

CREATE OR REPLACE TRIGGER companies_auth_change AFTER UPDATE OR DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION cw_notify_auth_change('c');
