-- The ledger: how a posting is written, and the guards that check every posting at commit.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- A posting written: transfers, their entries and the accounts' new balances. Everything that posts writes through it:
-- server/modules/ledger/post.ts (one transfer, after locking its accounts) and cw_transfer_batch (transfers.sql, a batch
-- of wallet transfers). What may be posted is each caller's to check, on the accounts it locked (FOR UPDATE, in id
-- order), whose balances before the first transfer it passes (a_id, a_balance).
-- - a ledger_transfers row per transfer, in the order given;
-- - their entries (e_transfer: the transfer's position in t_*), transfer by transfer and by account id within one,
--   each from its account's balance so far: balance_before -> balance_after chains in seq order;
-- - an account's balance set to its last entry's balance_after, only where it changed, one statement per account by
--   primary key (an update joined to arrays could be planned as a scan of the accounts).
CREATE OR REPLACE FUNCTION cw_post_transfers(
  t_id uuid[], t_kind text[], t_reference text[], t_description text[], t_meta jsonb[], t_created_by uuid[],
  t_at timestamptz[], e_id uuid[], e_transfer int[], e_account uuid[], e_amount bigint[], a_id uuid[], a_balance bigint[]
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bal bigint[] := a_balance;
  k int;
  j int;
  -- the entries to write, in order, with their figures
  n_id uuid[] := '{}'; n_tr uuid[] := '{}'; n_acc uuid[] := '{}'; n_amt bigint[] := '{}';
  n_before bigint[] := '{}'; n_after bigint[] := '{}'; n_at timestamptz[] := '{}';
BEGIN
  INSERT INTO ledger_transfers (id, kind, reference, description, meta, created_by, created_at)
  SELECT u.id, u.kind, u.ref, u.des, u.meta, u.by, u.at
  FROM unnest(t_id, t_kind, t_reference, t_description, t_meta, t_created_by, t_at) AS u(id, kind, ref, des, meta, by, at);

  FOR k IN SELECT u.k::int FROM unnest(e_transfer, e_account) WITH ORDINALITY AS u(tr, acc, k) ORDER BY u.tr, u.acc
  LOOP
    j := array_position(a_id, e_account[k]);
    IF j IS NULL THEN
      RAISE EXCEPTION 'ledger: account % is posted to without its balance', e_account[k];
    END IF;
    n_id := n_id || e_id[k]; n_tr := n_tr || t_id[e_transfer[k]]; n_acc := n_acc || e_account[k];
    n_amt := n_amt || e_amount[k]; n_at := n_at || t_at[e_transfer[k]];
    n_before := n_before || bal[j];
    bal[j] := bal[j] + e_amount[k];
    n_after := n_after || bal[j];
  END LOOP;
  INSERT INTO ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
  SELECT u.id, u.tr, u.acc, u.amt, u.bb, u.ba, u.at
  FROM unnest(n_id, n_tr, n_acc, n_amt, n_before, n_after, n_at) WITH ORDINALITY AS u(id, tr, acc, amt, bb, ba, at, k)
  ORDER BY u.k;

  FOR j IN 1 .. coalesce(cardinality(a_id), 0) LOOP
    IF bal[j] <> a_balance[j] THEN UPDATE ledger_accounts SET balance = bal[j] WHERE id = a_id[j]; END IF;
  END LOOP;
END $$;

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
