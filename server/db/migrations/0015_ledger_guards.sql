CREATE TABLE "key_checks" (
	"id" integer PRIMARY KEY NOT NULL,
	"check_value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "ledger_entries_account_seq_idx" ON "ledger_entries" USING btree ("account_id","seq");--> statement-breakpoint
-- The database guards the ledger as well as the code that posts to it: checked at commit, so a
-- transfer's entries and the accounts' new balances may be written in any order within it.
CREATE FUNCTION cw_ledger_check_account(p_account uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE cached bigint; last_after bigint;
BEGIN
  SELECT balance INTO cached FROM ledger_accounts WHERE id = p_account;
  SELECT balance_after INTO last_after FROM ledger_entries WHERE account_id = p_account ORDER BY seq DESC LIMIT 1;
  IF cached IS DISTINCT FROM coalesce(last_after, 0) THEN
    RAISE EXCEPTION 'ledger: account % holds a balance of % but its last entry says %', p_account, cached, coalesce(last_after, 0)
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_accounts_balance_from_entries';
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION cw_ledger_entry_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total numeric; prev_after bigint;
BEGIN
  SELECT balance_after INTO prev_after FROM ledger_entries WHERE account_id = NEW.account_id AND seq < NEW.seq ORDER BY seq DESC LIMIT 1;
  IF NEW.balance_before <> coalesce(prev_after, 0) THEN
    RAISE EXCEPTION 'ledger: an entry of account % starts from % but the entry before it ended at %', NEW.account_id, NEW.balance_before, coalesce(prev_after, 0)
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_chain';
  END IF;
  SELECT sum(amount) INTO total FROM ledger_entries WHERE transfer_id = NEW.transfer_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger: the entries of transfer % sum to %, not zero', NEW.transfer_id, total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transfers_sum_zero';
  END IF;
  PERFORM cw_ledger_check_account(NEW.account_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cw_ledger_account_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cw_ledger_check_account(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_guard AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cw_ledger_entry_guard();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_accounts_balance_guard AFTER UPDATE OF balance ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.balance IS DISTINCT FROM NEW.balance) EXECUTE FUNCTION cw_ledger_account_guard();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_accounts_opening_guard AFTER INSERT ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.balance <> 0) EXECUTE FUNCTION cw_ledger_account_guard();
