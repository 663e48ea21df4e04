-- Less database work around each commit of transfers (docs/benchmarks.md, seventh round).
--
-- The ledger's guards (0015), one statement each instead of four, and the cached balance checked once per account
-- and commit: an entry checks it only when it is its account's last entry. An earlier one leaves that to the last,
-- whose guard runs at its own transaction's commit (in this one when both are in it). A batch of five transfers
-- between two wallets checked each wallet five times over, all at commit, with the wallets locked. What is refused
-- is unchanged, with the same messages and constraint names; a changed balance is still checked by the account's guard.
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
--> statement-breakpoint
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
--> statement-breakpoint
-- A mail outcome's record (server/modules/notifications/mail.ts), planned once per connection: as one statement over
-- arrays the planner found a plan for each call's arrays cheaper than a generic one, and so planned it on every call.
-- Only the holder records it (the attempt it claimed). One row per statement, by primary key, so that no generic plan
-- can read more; "is not distinct from" keeps the partial indexes of pending mail out of the plan. It commits without
-- waiting for the disk (set here for the caller's transaction: the function's own SET clause would end with it).
CREATE FUNCTION cw_mail_outcomes(p_ids uuid[], p_states text[], p_next timestamptz[], p_attempts int[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR i IN 1 .. coalesce(cardinality(p_ids), 0) LOOP
    UPDATE notifications SET mail_state = p_states[i], mail_next_attempt_at = p_next[i]
    WHERE id = p_ids[i] AND mail_state IS NOT DISTINCT FROM 'pending' AND mail_attempts = p_attempts[i];
  END LOOP;
END $$;
