-- Issue 35, the chain deposits list at half a million deposits: pages from an index newest first (all, or one status),
-- and its totals by status kept, as the KYC/KYB lists' are (migration 0054). No deposit is written between the
-- triggers' creation and the first count: writers wait.
LOCK TABLE chain_deposits IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE INDEX "chain_deposits_created_idx" ON "chain_deposits" USING btree ("created_at","id");
--> statement-breakpoint
CREATE INDEX "chain_deposits_status_created_idx" ON "chain_deposits" USING btree ("status","created_at","id");
--> statement-breakpoint
CREATE TABLE "chain_deposit_count" (
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "chain_deposit_count_pkey" PRIMARY KEY("status","slot")
);
--> statement-breakpoint
-- The chain deposits list's totals by status (migration 0057), so that the list, filtered by status or not, reads its
-- total instead of counting every deposit. A staff decision (assign, return) is counted a row at a time.
CREATE OR REPLACE FUNCTION cw_chain_deposit_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO chain_deposit_count (status, slot, rows)
    SELECT n.status, pg_backend_pid() % 16, count(*) FROM new_rows n GROUP BY 1 ORDER BY 1
    ON CONFLICT (status, slot) DO UPDATE SET rows = chain_deposit_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO chain_deposit_count (status, slot, rows)
    SELECT o.status, pg_backend_pid() % 16, -count(*) FROM old_rows o GROUP BY 1 ORDER BY 1
    ON CONFLICT (status, slot) DO UPDATE SET rows = chain_deposit_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO chain_deposit_count (status, slot, rows)
    SELECT x.status, pg_backend_pid() % 16, sum(x.n) FROM (VALUES (OLD.status, -1), (NEW.status, 1)) AS x(status, n)
    GROUP BY 1 HAVING sum(x.n) <> 0 ORDER BY 1
    ON CONFLICT (status, slot) DO UPDATE SET rows = chain_deposit_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER chain_deposit_count_insert AFTER INSERT ON chain_deposits
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_chain_deposit_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER chain_deposit_count_delete AFTER DELETE ON chain_deposits
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_chain_deposit_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER chain_deposit_count_update AFTER UPDATE OF status ON chain_deposits
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION cw_chain_deposit_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER chain_deposit_count_no_truncate BEFORE TRUNCATE ON chain_deposits
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO chain_deposit_count (status, slot, rows) SELECT status, 0, count(*) FROM chain_deposits GROUP BY 1;
