-- The ledger: the guards that check every posting at commit.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- The database guards the ledger as well as the code that posts to it, at commit (the constraint triggers below), so
-- a transfer's entries and the accounts' new balances may be written in any order within it. An entry checks its
-- account's cached balance only when it is the account's last entry; a changed balance is checked by the account's
-- guard. Each raises check_violation with the constraint name the code and tests know.
CREATE OR REPLACE FUNCTION cw_ledger_check_account(p_account uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE cached bigint; last_after bigint;
BEGIN
  SELECT a.balance,
    (SELECT e.balance_after FROM ledger_entries e WHERE e.account_id = p_account ORDER BY e.seq DESC LIMIT 1)
  INTO cached, last_after
  FROM ledger_accounts a WHERE a.id = p_account;
  IF cached IS DISTINCT FROM coalesce(last_after, 0) THEN
    RAISE EXCEPTION 'ledger: account % holds a balance of % but its last entry says %', p_account, cached, coalesce(last_after, 0)
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_accounts_balance_from_entries';
  END IF;
END $$;

CREATE OR REPLACE FUNCTION cw_ledger_entry_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE prev_after bigint; total numeric; last_seq bigint; cached bigint;
BEGIN
  SELECT
    (SELECT e.balance_after FROM ledger_entries e
     WHERE e.account_id = NEW.account_id AND e.seq < NEW.seq ORDER BY e.seq DESC LIMIT 1),
    (SELECT sum(e.amount) FROM ledger_entries e WHERE e.transfer_id = NEW.transfer_id),
    (SELECT e.seq FROM ledger_entries e WHERE e.account_id = NEW.account_id ORDER BY e.seq DESC LIMIT 1),
    (SELECT a.balance FROM ledger_accounts a WHERE a.id = NEW.account_id)
  INTO prev_after, total, last_seq, cached;
  IF NEW.balance_before <> coalesce(prev_after, 0) THEN
    RAISE EXCEPTION 'ledger: an entry of account % starts from % but the entry before it ended at %', NEW.account_id, NEW.balance_before, coalesce(prev_after, 0)
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_chain';
  END IF;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger: the entries of transfer % sum to %, not zero', NEW.transfer_id, total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transfers_sum_zero';
  END IF;
  IF last_seq = NEW.seq AND cached IS DISTINCT FROM NEW.balance_after THEN
    RAISE EXCEPTION 'ledger: account % holds a balance of % but its last entry says %', NEW.account_id, cached, NEW.balance_after
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_accounts_balance_from_entries';
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION cw_ledger_account_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cw_ledger_check_account(NEW.id);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS ledger_entries_guard ON ledger_entries;
CREATE CONSTRAINT TRIGGER ledger_entries_guard AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cw_ledger_entry_guard();

DROP TRIGGER IF EXISTS ledger_accounts_balance_guard ON ledger_accounts;
CREATE CONSTRAINT TRIGGER ledger_accounts_balance_guard AFTER UPDATE OF balance ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.balance IS DISTINCT FROM NEW.balance)
  EXECUTE FUNCTION cw_ledger_account_guard();

DROP TRIGGER IF EXISTS ledger_accounts_opening_guard ON ledger_accounts;
CREATE CONSTRAINT TRIGGER ledger_accounts_opening_guard AFTER INSERT ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.balance <> 0) EXECUTE FUNCTION cw_ledger_account_guard();
