CREATE TABLE "wallet_movement_totals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_movement_totals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"entries" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"debits" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_movement_totals_kind_day_idx" ON "wallet_movement_totals" USING btree ("kind","day");--> statement-breakpoint
CREATE INDEX "topups_updated_idx" ON "topups" USING btree ("updated_at","id");--> statement-breakpoint
-- Each statement that posts entries adds its wallet movements' totals, per UTC day and transfer
-- kind, as new rows: no row is ever updated here, so concurrent postings never wait on one
-- another (a shared counter row would serialise every transfer of the day).
-- Lookups by primary key per new entry rather than joins: the plan stays linear whatever the
-- planner believes of the transition table's size (joined, a bulk insert into a fresh database
-- was planned as a nested loop over it and ran for minutes).
CREATE FUNCTION cw_wallet_movement_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wallet_movement_totals (day, kind, entries, amount, fees, debits)
  SELECT day, kind, count(*), sum(abs(amount)), coalesce(sum(fees), 0), count(*) FILTER (WHERE amount < 0)
  FROM (
    SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, e.amount,
           (SELECT t.kind FROM ledger_transfers t WHERE t.id = e.transfer_id) AS kind,
           (SELECT (t.meta->>'fees_total')::bigint FROM ledger_transfers t WHERE t.id = e.transfer_id) AS fees
    FROM new_entries e
    WHERE (SELECT a.kind FROM ledger_accounts a WHERE a.id = e.account_id) = 'wallet'
  ) x
  GROUP BY day, kind;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_wallet_totals AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION cw_wallet_movement_totals();
--> statement-breakpoint
-- The history so far, one row per day and kind.
INSERT INTO wallet_movement_totals (day, kind, entries, amount, fees, debits)
SELECT (e.created_at AT TIME ZONE 'UTC')::date, t.kind, count(*), sum(abs(e.amount)),
       coalesce(sum((t.meta->>'fees_total')::bigint), 0), count(*) FILTER (WHERE e.amount < 0)
FROM ledger_entries e
JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet'
JOIN ledger_transfers t ON t.id = e.transfer_id
GROUP BY 1, 2;
