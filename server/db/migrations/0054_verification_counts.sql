-- Issue 35, the KYC and KYB lists at half a million submissions: their totals by state kept, as the cards' are
-- (migration 0031), and the webhook delivery log's by state. No submission or event is written between the triggers'
-- creation and the first count: writers wait.
LOCK TABLE verifications, webhook_events IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "verification_count" (
	"account_type" text NOT NULL,
	"state" text NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "verification_count_pkey" PRIMARY KEY("account_type","state","slot")
);
--> statement-breakpoint
CREATE TABLE "webhook_event_count" (
	"state" text NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "webhook_event_count_pkey" PRIMARY KEY("state","slot")
);
--> statement-breakpoint
-- The KYC and KYB lists' totals by state (migration 0054), so that a list filtered by state alone (or not at all)
-- reads its total instead of counting half a million submissions. Inserted and removed rows a statement at a time;
-- a change of what is counted (a decision), a row at a time. Locks taken in key order, as the cards' count does.
CREATE OR REPLACE FUNCTION cw_verification_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO verification_count (account_type, state, slot, rows)
    SELECT n.account_type, n.state, pg_backend_pid() % 16, count(*) FROM new_rows n GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (account_type, state, slot) DO UPDATE SET rows = verification_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO verification_count (account_type, state, slot, rows)
    SELECT o.account_type, o.state, pg_backend_pid() % 16, -count(*) FROM old_rows o GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (account_type, state, slot) DO UPDATE SET rows = verification_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO verification_count (account_type, state, slot, rows)
    SELECT x.account_type, x.state, pg_backend_pid() % 16, sum(x.n)
    FROM (VALUES (OLD.account_type, OLD.state, -1), (NEW.account_type, NEW.state, 1)) AS x(account_type, state, n)
    GROUP BY 1, 2 HAVING sum(x.n) <> 0 ORDER BY 1, 2
    ON CONFLICT (account_type, state, slot) DO UPDATE SET rows = verification_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER verification_count_insert AFTER INSERT ON verifications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_verification_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER verification_count_delete AFTER DELETE ON verifications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_verification_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER verification_count_update AFTER UPDATE OF account_type, state ON verifications
  FOR EACH ROW
  WHEN ((OLD.account_type, OLD.state) IS DISTINCT FROM (NEW.account_type, NEW.state))
  EXECUTE FUNCTION cw_verification_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER verification_count_no_truncate BEFORE TRUNCATE ON verifications
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO verification_count (account_type, state, slot, rows)
SELECT account_type, state, 0, count(*) FROM verifications GROUP BY 1, 2;
--> statement-breakpoint
-- The staff's delivery log of every company pages newest first: from an index, not a sort of every event.
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at","id");
--> statement-breakpoint
-- The delivery log's totals by state (migration 0054), so that the log of every company, filtered by state or not,
-- reads its total instead of counting every event. A state change (a delivery, a failure) is counted a row at a time.
CREATE OR REPLACE FUNCTION cw_webhook_event_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO webhook_event_count (state, slot, rows)
    SELECT n.state, pg_backend_pid() % 16, count(*) FROM new_rows n GROUP BY 1 ORDER BY 1
    ON CONFLICT (state, slot) DO UPDATE SET rows = webhook_event_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO webhook_event_count (state, slot, rows)
    SELECT o.state, pg_backend_pid() % 16, -count(*) FROM old_rows o GROUP BY 1 ORDER BY 1
    ON CONFLICT (state, slot) DO UPDATE SET rows = webhook_event_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO webhook_event_count (state, slot, rows)
    SELECT x.state, pg_backend_pid() % 16, sum(x.n) FROM (VALUES (OLD.state, -1), (NEW.state, 1)) AS x(state, n)
    GROUP BY 1 HAVING sum(x.n) <> 0 ORDER BY 1
    ON CONFLICT (state, slot) DO UPDATE SET rows = webhook_event_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER webhook_event_count_insert AFTER INSERT ON webhook_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_webhook_event_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER webhook_event_count_delete AFTER DELETE ON webhook_events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_webhook_event_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER webhook_event_count_update AFTER UPDATE OF state ON webhook_events
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION cw_webhook_event_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER webhook_event_count_no_truncate BEFORE TRUNCATE ON webhook_events
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO webhook_event_count (state, slot, rows) SELECT state, 0, count(*) FROM webhook_events GROUP BY 1;
