-- History that is never changed: the ledger, the wallet movements that mirror it, the audit trail.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- Ledger rows are history: they are never changed or removed; corrections are new transfers.
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ledger % rows are immutable', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;

-- The audit trail is history too.
CREATE OR REPLACE FUNCTION history_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

CREATE OR REPLACE TRIGGER ledger_transfers_immutable BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

-- Append-only, as the ledger it mirrors.
CREATE OR REPLACE TRIGGER wallet_entries_immutable BEFORE UPDATE OR DELETE ON wallet_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

CREATE OR REPLACE TRIGGER audit_log_immutable BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION history_refuse_change();

-- History cannot be wiped wholesale either.
CREATE OR REPLACE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION history_refuse_change();

CREATE OR REPLACE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION history_refuse_change();

CREATE OR REPLACE TRIGGER wallet_entries_no_truncate BEFORE TRUNCATE ON wallet_entries
  FOR EACH STATEMENT EXECUTE FUNCTION history_refuse_change();

CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION history_refuse_change();
