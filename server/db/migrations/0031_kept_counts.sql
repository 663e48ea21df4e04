-- The staff's card list counted every card for its total (20-30 ms at 100,000), and by owner kind joined each to
-- companies (p95 near 50 ms at 75,000). The audit trail by object type counted its rows (p95 20-60 ms at 40,000). Both
-- totals are now kept, like the trail's by action (0030): in the inserting transaction, in per-backend slots.
CREATE TABLE "card_count" (
	"owner_type" text NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "card_count_owner_type_slot_pk" PRIMARY KEY("owner_type","slot")
);
--> statement-breakpoint
-- A card's owner kind is its wallet's: a company's when a company has that id (as the list's filter has it).
CREATE FUNCTION cw_card_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO card_count (owner_type, slot, rows)
    SELECT k.owner_type, pg_backend_pid() % 16, count(*)
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT CASE WHEN EXISTS (SELECT 1 FROM companies c WHERE c.id = n.wallet_id)
                                    THEN 'company' ELSE 'individual' END AS owner_type) k
    GROUP BY k.owner_type
    ON CONFLICT (owner_type, slot) DO UPDATE SET rows = card_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO card_count (owner_type, slot, rows)
    SELECT k.owner_type, pg_backend_pid() % 16, -count(*)
    FROM old_rows o
    CROSS JOIN LATERAL (SELECT CASE WHEN EXISTS (SELECT 1 FROM companies c WHERE c.id = o.wallet_id)
                                    THEN 'company' ELSE 'individual' END AS owner_type) k
    GROUP BY k.owner_type
    ON CONFLICT (owner_type, slot) DO UPDATE SET rows = card_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The counts hold only while a card keeps its wallet, and while no kept table is truncated: both are refused.
CREATE FUNCTION cw_kept_count_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION '% is not truncated: its totals are kept (migration 0031)', TG_TABLE_NAME;
  END IF;
  RAISE EXCEPTION 'a card''s wallet never changes (card_count keeps the cards of each owner kind)';
END $$;
--> statement-breakpoint
LOCK TABLE cards IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TRIGGER card_count_insert AFTER INSERT ON cards
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_count();
--> statement-breakpoint
CREATE TRIGGER card_count_delete AFTER DELETE ON cards
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_count();
--> statement-breakpoint
CREATE TRIGGER card_wallet_fixed BEFORE UPDATE OF wallet_id ON cards
  FOR EACH ROW WHEN (OLD.wallet_id IS DISTINCT FROM NEW.wallet_id) EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
CREATE TRIGGER card_count_no_truncate BEFORE TRUNCATE ON cards FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO card_count (owner_type, slot, rows)
SELECT CASE WHEN co.id IS NULL THEN 'individual' ELSE 'company' END, 0, count(*)
FROM cards ca LEFT JOIN companies co ON co.id = ca.wallet_id
GROUP BY 1;
--> statement-breakpoint
-- The trail's kept count gains the object type; rebuilt from the trail while no audit row can be written.
LOCK TABLE audit_log IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
DELETE FROM audit_log_count;
--> statement-breakpoint
ALTER TABLE "audit_log_count" DROP CONSTRAINT "audit_log_count_action_slot_pk";
--> statement-breakpoint
ALTER TABLE "audit_log_count" ADD COLUMN "object_type" text NOT NULL;
--> statement-breakpoint
ALTER TABLE "audit_log_count" ADD CONSTRAINT "audit_log_count_action_object_type_slot_pk" PRIMARY KEY("action","object_type","slot");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cw_audit_log_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_log_count (action, object_type, slot, rows)
  SELECT n.action, n.object_type, pg_backend_pid() % 16, count(*) FROM new_rows n GROUP BY n.action, n.object_type
  ON CONFLICT (action, object_type, slot) DO UPDATE SET rows = audit_log_count.rows + EXCLUDED.rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO audit_log_count (action, object_type, slot, rows)
SELECT action, object_type, 0, count(*) FROM audit_log GROUP BY action, object_type;
--> statement-breakpoint
-- Flagged cards are few; the staff's flagged filter read every card to find none (50 ms at 100,000 on PGlite).
CREATE INDEX "cards_flagged_created_idx" ON "cards" USING btree ("created_at","id") WHERE flagged;
--> statement-breakpoint
-- The staff's top-up lists summed every top-up for their total and sums (30-45 ms at 100,000 on PGlite).
CREATE TABLE "topup_totals" (
	"method" text NOT NULL,
	"owner_type" text NOT NULL,
	"state" text NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "topup_totals_method_owner_type_state_slot_pk" PRIMARY KEY("method","owner_type","state","slot")
);
--> statement-breakpoint
CREATE INDEX "topups_created_idx" ON "topups" USING btree ("created_at");
--> statement-breakpoint
-- A top-up's state changes (and could its amount): an update takes the old rows off and adds the new ones, each
-- group written only when its figures moved. Top-ups are not removed, but a removal is taken off all the same.
CREATE FUNCTION cw_topup_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m text[] := '{}'; w uuid[] := '{}'; s text[] := '{}'; d int[] := '{}'; a bigint[] := '{}';
BEGIN
  -- A transition table exists only for the operations that have it: each is read in its own branch.
  IF TG_OP <> 'DELETE' THEN
    SELECT m || array_agg(n.method), w || array_agg(n.wallet_id), s || array_agg(n.state),
           d || array_agg(1), a || array_agg(n.amount)
    INTO m, w, s, d, a FROM new_rows n;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT m || array_agg(o.method), w || array_agg(o.wallet_id), s || array_agg(o.state),
           d || array_agg(-1), a || array_agg(-o.amount)
    INTO m, w, s, d, a FROM old_rows o;
  END IF;
  INSERT INTO topup_totals (method, owner_type, state, slot, rows, amount)
  SELECT x.method, k.owner_type, x.state, pg_backend_pid() % 16, sum(x.n), sum(x.amount)
  FROM unnest(m, w, s, d, a) AS x(method, wallet_id, state, n, amount)
  CROSS JOIN LATERAL (SELECT CASE WHEN EXISTS (SELECT 1 FROM companies c WHERE c.id = x.wallet_id)
                                  THEN 'company' ELSE 'individual' END AS owner_type) k
  GROUP BY x.method, k.owner_type, x.state
  HAVING sum(x.n) <> 0 OR sum(x.amount) <> 0
  ON CONFLICT (method, owner_type, state, slot)
    DO UPDATE SET rows = topup_totals.rows + EXCLUDED.rows, amount = topup_totals.amount + EXCLUDED.amount;
  RETURN NULL;
END $$;
--> statement-breakpoint
LOCK TABLE topups IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TRIGGER topup_totals_insert AFTER INSERT ON topups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_totals();
--> statement-breakpoint
CREATE TRIGGER topup_totals_update AFTER UPDATE ON topups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_totals();
--> statement-breakpoint
CREATE TRIGGER topup_totals_delete AFTER DELETE ON topups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_totals();
--> statement-breakpoint
CREATE TRIGGER topup_totals_no_truncate BEFORE TRUNCATE ON topups FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO topup_totals (method, owner_type, state, slot, rows, amount)
SELECT t.method, CASE WHEN co.id IS NULL THEN 'individual' ELSE 'company' END, t.state, 0, count(*), sum(t.amount)
FROM topups t LEFT JOIN companies co ON co.id = t.wallet_id
GROUP BY 1, 2, 3;
