-- Notifications: the mail of each.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- A mail outcome's record (server/modules/notifications/mail.ts), planned once per connection: as one statement over
-- arrays the planner found a plan for each call's arrays cheaper than a generic one, and so planned it on every call.
-- Only the holder records it (the attempt it claimed). One row per statement, by primary key, so that no generic plan
-- can read more; "is not distinct from" keeps the partial indexes of pending mail out of the plan. It commits without
-- waiting for the disk (set here for the caller's transaction: the function's own SET clause would end with it).
CREATE OR REPLACE FUNCTION cw_mail_outcomes(p_ids uuid[], p_states text[], p_next timestamptz[], p_attempts int[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR i IN 1 .. coalesce(cardinality(p_ids), 0) LOOP
    UPDATE notifications SET mail_state = p_states[i], mail_next_attempt_at = p_next[i]
    WHERE id = p_ids[i] AND mail_state IS NOT DISTINCT FROM 'pending' AND mail_attempts = p_attempts[i];
  END LOOP;
END $$;
