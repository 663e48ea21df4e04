-- One wallet's own lists (a customer's history, however busy the wallet) from wallet_entries and kept totals, as the
-- staff's lists over all wallets already are: the page from an index on (account, time) or (account, kind, time)
-- that holds what paging needs, the totals line and the page's starting day from per-wallet totals per UTC day and
-- kind. No entry is posted between the trigger's new definition and the copy of the entries so far: postings wait.
LOCK TABLE ledger_entries IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
ALTER TABLE "wallet_entries" DISABLE TRIGGER wallet_entries_immutable;
--> statement-breakpoint
UPDATE wallet_entries w SET account_id = e.account_id FROM ledger_entries e WHERE e.id = w.entry_id;
--> statement-breakpoint
ALTER TABLE "wallet_entries" ENABLE TRIGGER wallet_entries_immutable;
--> statement-breakpoint
ALTER TABLE "wallet_entries" ALTER COLUMN "account_id" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "wallet_entries_account_time_idx" ON "wallet_entries" USING btree ("account_id","created_at","entry_id");--> statement-breakpoint
CREATE INDEX "wallet_entries_account_kind_time_idx" ON "wallet_entries" USING btree ("account_id","kind","created_at","entry_id");--> statement-breakpoint
CREATE TABLE "wallet_account_totals" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"entries" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"fees" bigint NOT NULL,
	CONSTRAINT "wallet_account_totals_pkey" PRIMARY KEY("account_id","day","kind")
);
--> statement-breakpoint
CREATE OR REPLACE TRIGGER wallet_account_totals_no_truncate BEFORE TRUNCATE ON wallet_account_totals
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO wallet_account_totals (account_id, day, kind, entries, amount, fees)
SELECT e.account_id, (e.created_at AT TIME ZONE 'UTC')::date, t.kind, count(*), sum(abs(e.amount)),
       coalesce(sum((t.meta->>'fees_total')::bigint), 0)
FROM ledger_entries e
JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet'
JOIN ledger_transfers t ON t.id = e.transfer_id
GROUP BY 1, 2, 3;
--> statement-breakpoint
-- The statement trigger of 0018 and 0023 also records each wallet entry's account, and adds the entries' totals to
-- their wallet's row for the day and kind. Updated in place, not appended: a posting holds its wallets' accounts
-- locked (FOR UPDATE) until it commits, so no two postings write one wallet's rows at once.
CREATE OR REPLACE FUNCTION cw_wallet_movement_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH w AS MATERIALIZED (
    SELECT e.id, e.transfer_id, e.account_id, e.created_at, e.amount,
           (SELECT t.kind FROM ledger_transfers t WHERE t.id = e.transfer_id) AS kind,
           (SELECT (t.meta->>'fees_total')::bigint FROM ledger_transfers t WHERE t.id = e.transfer_id) AS fees
    FROM new_entries e
    WHERE (SELECT a.kind FROM ledger_accounts a WHERE a.id = e.account_id) = 'wallet'
  ), listed AS (
    INSERT INTO wallet_entries (entry_id, transfer_id, account_id, kind, debit, created_at)
    SELECT id, transfer_id, account_id, kind, amount < 0, created_at FROM w
  ), per_wallet AS (
    INSERT INTO wallet_account_totals AS x (account_id, day, kind, entries, amount, fees)
    SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, kind, count(*), sum(abs(amount)), coalesce(sum(fees), 0)
    FROM w
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (account_id, day, kind) DO UPDATE
      SET entries = x.entries + EXCLUDED.entries, amount = x.amount + EXCLUDED.amount, fees = x.fees + EXCLUDED.fees
  )
  INSERT INTO wallet_movement_totals (day, kind, entries, amount, fees, debits)
  SELECT (created_at AT TIME ZONE 'UTC')::date, kind, count(*), sum(abs(amount)), coalesce(sum(fees), 0),
         count(*) FILTER (WHERE amount < 0)
  FROM w
  GROUP BY 1, 2;
  RETURN NULL;
END $$;
