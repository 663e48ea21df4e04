CREATE TABLE "wallet_entries" (
	"entry_id" uuid NOT NULL,
	"transfer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"debit" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_entries_time_idx" ON "wallet_entries" USING btree ("created_at","entry_id");--> statement-breakpoint
CREATE INDEX "wallet_entries_kind_time_idx" ON "wallet_entries" USING btree ("kind","created_at","entry_id");--> statement-breakpoint
CREATE INDEX "wallet_entries_transfer_debits_idx" ON "wallet_entries" USING btree ("created_at","transfer_id") WHERE "wallet_entries"."kind" = 'transfer' and "wallet_entries"."debit";--> statement-breakpoint
-- Append-only, as the ledger it mirrors.
CREATE TRIGGER wallet_entries_immutable BEFORE UPDATE OR DELETE ON wallet_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER wallet_entries_no_truncate BEFORE TRUNCATE ON wallet_entries
  FOR EACH STATEMENT EXECUTE FUNCTION history_refuse_change();
--> statement-breakpoint
-- No entry is posted between the trigger's new definition and the copy of the entries so far (an instance still
-- running the old code would otherwise post entries that neither lists): postings wait until this commits.
LOCK TABLE ledger_entries IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- The statement trigger of 0018 also records each wallet entry in wallet_entries (one pass over the
-- new entries, the same lookups by primary key), so the staff's lists can walk wallet movements
-- newest first, by kind, without visiting every other entry of the ledger.
CREATE OR REPLACE FUNCTION cw_wallet_movement_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH w AS MATERIALIZED (
    SELECT e.id, e.transfer_id, e.created_at, e.amount,
           (SELECT t.kind FROM ledger_transfers t WHERE t.id = e.transfer_id) AS kind,
           (SELECT (t.meta->>'fees_total')::bigint FROM ledger_transfers t WHERE t.id = e.transfer_id) AS fees
    FROM new_entries e
    WHERE (SELECT a.kind FROM ledger_accounts a WHERE a.id = e.account_id) = 'wallet'
  ), listed AS (
    INSERT INTO wallet_entries (entry_id, transfer_id, kind, debit, created_at)
    SELECT id, transfer_id, kind, amount < 0, created_at FROM w
  )
  INSERT INTO wallet_movement_totals (day, kind, entries, amount, fees, debits)
  SELECT (created_at AT TIME ZONE 'UTC')::date, kind, count(*), sum(abs(amount)), coalesce(sum(fees), 0),
         count(*) FILTER (WHERE amount < 0)
  FROM w
  GROUP BY 1, 2;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The wallet entries so far.
INSERT INTO wallet_entries (entry_id, transfer_id, kind, debit, created_at)
SELECT e.id, e.transfer_id, t.kind, e.amount < 0, e.created_at
FROM ledger_entries e
JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet'
JOIN ledger_transfers t ON t.id = e.transfer_id;
--> statement-breakpoint
-- The audit trail's action filter is a case-insensitive prefix ("card." for every card action): the list
-- matches lower(action) LIKE '<prefix>%', which this index serves (counting by index, not by scanning).
CREATE INDEX "audit_log_action_prefix_idx" ON "audit_log" USING btree (lower("action") text_pattern_ops);
