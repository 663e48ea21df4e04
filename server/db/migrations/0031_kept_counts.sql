-- The staff's card list counted its cards for its total: 20-55 ms at 100,000 (more by owner kind, joined to
-- companies). The audit trail by object type counted its rows (p95 20-60 ms at 40,000), the top-up lists summed every
-- top-up. These totals are now kept, like the trail's by action (0030): in the writing transaction, in per-backend slots.
CREATE TABLE "card_count" (
	"owner_type" text NOT NULL,
	"purpose" text NOT NULL,
	"type" text NOT NULL,
	"active" boolean NOT NULL,
	"deleted" boolean NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "card_count_owner_type_purpose_type_active_deleted_slot_pk" PRIMARY KEY("owner_type","purpose","type","active","deleted","slot")
);
--> statement-breakpoint
-- A wallet is a company's when a company has its id (as the lists' owner filter has it), else an Individual's.
CREATE FUNCTION cw_wallet_kind(wallet uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM companies c WHERE c.id = wallet) THEN 'company' ELSE 'individual' END
$$;
--> statement-breakpoint
-- Inserted and removed cards, a statement at a time; a change of what is counted, a card at a time (the trigger fires
-- only then, which is seldom: a freeze, a deletion; not an authorisation's update). Each statement takes its rows'
-- locks in key order: two backends sharing a slot, each moving a card between two keys the opposite way, would
-- otherwise deadlock.
CREATE FUNCTION cw_card_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO card_count (owner_type, purpose, type, active, deleted, slot, rows)
    SELECT cw_wallet_kind(n.wallet_id), n.purpose, n.type, n.state = 'Active', n.deleted_at IS NOT NULL,
           pg_backend_pid() % 16, count(*)
    FROM new_rows n GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (owner_type, purpose, type, active, deleted, slot) DO UPDATE SET rows = card_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO card_count (owner_type, purpose, type, active, deleted, slot, rows)
    SELECT cw_wallet_kind(o.wallet_id), o.purpose, o.type, o.state = 'Active', o.deleted_at IS NOT NULL,
           pg_backend_pid() % 16, -count(*)
    FROM old_rows o GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (owner_type, purpose, type, active, deleted, slot) DO UPDATE SET rows = card_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO card_count (owner_type, purpose, type, active, deleted, slot, rows)
    SELECT x.owner_type, x.purpose, x.type, x.active, x.deleted, pg_backend_pid() % 16, sum(x.n)
    FROM (VALUES
      (cw_wallet_kind(OLD.wallet_id), OLD.purpose, OLD.type, OLD.state = 'Active', OLD.deleted_at IS NOT NULL, -1),
      (cw_wallet_kind(NEW.wallet_id), NEW.purpose, NEW.type, NEW.state = 'Active', NEW.deleted_at IS NOT NULL, 1)
    ) AS x(owner_type, purpose, type, active, deleted, n)
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (owner_type, purpose, type, active, deleted, slot) DO UPDATE SET rows = card_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The totals hold only while no kept table is truncated: that is refused.
CREATE FUNCTION cw_kept_count_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is not truncated: its totals are kept (migration 0031)', TG_TABLE_NAME;
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
CREATE TRIGGER card_count_update AFTER UPDATE OF wallet_id, purpose, type, state, deleted_at ON cards FOR EACH ROW
  WHEN ((OLD.wallet_id, OLD.purpose, OLD.type, OLD.state = 'Active', OLD.deleted_at IS NULL)
        IS DISTINCT FROM (NEW.wallet_id, NEW.purpose, NEW.type, NEW.state = 'Active', NEW.deleted_at IS NULL))
  EXECUTE FUNCTION cw_card_count();
--> statement-breakpoint
CREATE TRIGGER card_count_no_truncate BEFORE TRUNCATE ON cards FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO card_count (owner_type, purpose, type, active, deleted, slot, rows)
SELECT CASE WHEN co.id IS NULL THEN 'individual' ELSE 'company' END, ca.purpose, ca.type, ca.state = 'Active',
       ca.deleted_at IS NOT NULL, 0, count(*)
FROM cards ca LEFT JOIN companies co ON co.id = ca.wallet_id
GROUP BY 1, 2, 3, 4, 5;
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
  ORDER BY 1, 2
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
-- The top-up lists' total and sums (30-45 ms at 100,000 on PGlite).
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
  CROSS JOIN LATERAL (SELECT cw_wallet_kind(x.wallet_id) AS owner_type) k
  GROUP BY x.method, k.owner_type, x.state
  HAVING sum(x.n) <> 0 OR sum(x.amount) <> 0
  ORDER BY 1, 2, 3
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
