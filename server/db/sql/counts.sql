-- Kept totals: the counts and sums of the staff's lists.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- Totals the staff's lists show, kept in the writing transaction instead of counted per request. Kept totals are rows
-- added per statement, or per-backend slots (pg_backend_pid() % 16) updated in key order, so that concurrent writers
-- do not wait on one shared row.

-- Each statement that posts entries adds its wallet movements' totals, per UTC day and transfer kind, as new rows
-- (compacted per day by housekeeping), and records each wallet entry in wallet_entries, so the staff's lists can walk
-- wallet movements newest first, by kind, without visiting every other entry of the ledger. Lookups by primary key
-- per new entry rather than joins: the plan stays linear whatever the planner believes of the transition table's size.
-- It also adds them to each wallet's row for the day and kind (wallet_account_totals, migration 0049), for one
-- wallet's own lists; those rows are updated in place: a posting holds its wallets' accounts locked until it commits.
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

CREATE OR REPLACE TRIGGER ledger_entries_wallet_totals AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION cw_wallet_movement_totals();

-- The audit trail's totals by action and object type. Any action prefix's total is exact from these rows: each audit
-- row has exactly one action.
CREATE OR REPLACE FUNCTION cw_audit_log_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_log_count (action, object_type, slot, rows)
  SELECT n.action, n.object_type, pg_backend_pid() % 16, count(*) FROM new_rows n GROUP BY n.action, n.object_type
  ORDER BY 1, 2
  ON CONFLICT (action, object_type, slot) DO UPDATE SET rows = audit_log_count.rows + EXCLUDED.rows;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER audit_log_count AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_audit_log_count();

-- A wallet is a company's when a company has its id (as the lists' owner filter has it), else an Individual's.
CREATE OR REPLACE FUNCTION cw_wallet_kind(wallet uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM companies c WHERE c.id = wallet) THEN 'company' ELSE 'individual' END
$$;

-- Inserted and removed cards, a statement at a time; a change of what is counted, a card at a time (the trigger fires
-- only then, which is seldom: a freeze, a deletion; not an authorisation's update). Each statement takes its rows'
-- locks in key order: two backends sharing a slot, each moving a card between two keys the opposite way, would
-- otherwise deadlock.
CREATE OR REPLACE FUNCTION cw_card_count() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- The totals hold only while no kept table is truncated: that is refused.
CREATE OR REPLACE FUNCTION cw_kept_count_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is not truncated: its totals are kept (migration 0031)', TG_TABLE_NAME;
END $$;

CREATE OR REPLACE TRIGGER card_count_insert AFTER INSERT ON cards
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_count();

CREATE OR REPLACE TRIGGER card_count_delete AFTER DELETE ON cards
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_count();

CREATE OR REPLACE TRIGGER card_count_update AFTER UPDATE OF wallet_id, purpose, type, state, deleted_at ON cards
  FOR EACH ROW
  WHEN ((OLD.wallet_id, OLD.purpose, OLD.type, OLD.state = 'Active', OLD.deleted_at IS NULL)
        IS DISTINCT FROM (NEW.wallet_id, NEW.purpose, NEW.type, NEW.state = 'Active', NEW.deleted_at IS NULL))
  EXECUTE FUNCTION cw_card_count();

CREATE OR REPLACE TRIGGER card_count_no_truncate BEFORE TRUNCATE ON cards
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

-- A top-up's state changes (and could its amount): an update takes the old rows off and adds the new ones, each
-- group written only when its figures moved. Top-ups are not removed, but a removal is taken off all the same.
CREATE OR REPLACE FUNCTION cw_topup_totals() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE TRIGGER topup_totals_insert AFTER INSERT ON topups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_totals();

CREATE OR REPLACE TRIGGER topup_totals_update AFTER UPDATE ON topups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_totals();

CREATE OR REPLACE TRIGGER topup_totals_delete AFTER DELETE ON topups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_totals();

CREATE OR REPLACE TRIGGER wallet_account_totals_no_truncate BEFORE TRUNCATE ON wallet_account_totals
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

CREATE OR REPLACE TRIGGER topup_totals_no_truncate BEFORE TRUNCATE ON topups
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

-- The customer lists' totals: Individuals not deleted, and companies, by verification state and whether deactivated,
-- so that a list filtered by state alone (or not at all) reads its total instead of counting half a million rows.
-- Inserted and removed rows a statement at a time; a change of what is counted, a row at a time (the trigger fires
-- only then: a verification decision, a deactivation, a deletion, a change of role; not a sign-in). Each statement
-- takes its rows' locks in key order, as the cards' count does.
CREATE OR REPLACE FUNCTION cw_individual_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'individual', n.state, n.deactivated_at IS NOT NULL, pg_backend_pid() % 16, count(*)
    FROM new_rows n WHERE n.role = 'Individual' AND n.deleted_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'individual', o.state, o.deactivated_at IS NOT NULL, pg_backend_pid() % 16, -count(*)
    FROM old_rows o WHERE o.role = 'Individual' AND o.deleted_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'individual', x.state, x.deactivated, pg_backend_pid() % 16, sum(x.n)
    FROM (VALUES
      (OLD.state, OLD.deactivated_at IS NOT NULL, CASE WHEN OLD.role = 'Individual' AND OLD.deleted_at IS NULL THEN -1 ELSE 0 END),
      (NEW.state, NEW.deactivated_at IS NOT NULL, CASE WHEN NEW.role = 'Individual' AND NEW.deleted_at IS NULL THEN 1 ELSE 0 END)
    ) AS x(state, deactivated, n)
    GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION cw_company_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'company', n.state, n.deactivated_at IS NOT NULL, pg_backend_pid() % 16, count(*)
    FROM new_rows n GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'company', o.state, o.deactivated_at IS NOT NULL, pg_backend_pid() % 16, -count(*)
    FROM old_rows o GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'company', x.state, x.deactivated, pg_backend_pid() % 16, sum(x.n)
    FROM (VALUES (OLD.state, OLD.deactivated_at IS NOT NULL, -1), (NEW.state, NEW.deactivated_at IS NOT NULL, 1)) AS x(state, deactivated, n)
    GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER individual_count_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_individual_count();

CREATE OR REPLACE TRIGGER individual_count_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_individual_count();

CREATE OR REPLACE TRIGGER individual_count_update AFTER UPDATE OF role, state, deactivated_at, deleted_at ON users
  FOR EACH ROW
  WHEN ((OLD.role = 'Individual' AND OLD.deleted_at IS NULL, OLD.state, OLD.deactivated_at IS NULL)
        IS DISTINCT FROM (NEW.role = 'Individual' AND NEW.deleted_at IS NULL, NEW.state, NEW.deactivated_at IS NULL))
  EXECUTE FUNCTION cw_individual_count();

CREATE OR REPLACE TRIGGER company_count_insert AFTER INSERT ON companies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_company_count();

CREATE OR REPLACE TRIGGER company_count_delete AFTER DELETE ON companies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_company_count();

CREATE OR REPLACE TRIGGER company_count_update AFTER UPDATE OF state, deactivated_at ON companies
  FOR EACH ROW
  WHEN ((OLD.state, OLD.deactivated_at IS NULL) IS DISTINCT FROM (NEW.state, NEW.deactivated_at IS NULL))
  EXECUTE FUNCTION cw_company_count();

CREATE OR REPLACE TRIGGER customer_count_no_truncate_users BEFORE TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

CREATE OR REPLACE TRIGGER customer_count_no_truncate_companies BEFORE TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

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

CREATE OR REPLACE TRIGGER verification_count_insert AFTER INSERT ON verifications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_verification_count();

CREATE OR REPLACE TRIGGER verification_count_delete AFTER DELETE ON verifications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_verification_count();

CREATE OR REPLACE TRIGGER verification_count_update AFTER UPDATE OF account_type, state ON verifications
  FOR EACH ROW
  WHEN ((OLD.account_type, OLD.state) IS DISTINCT FROM (NEW.account_type, NEW.state))
  EXECUTE FUNCTION cw_verification_count();

CREATE OR REPLACE TRIGGER verification_count_no_truncate BEFORE TRUNCATE ON verifications
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

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

CREATE OR REPLACE TRIGGER webhook_event_count_insert AFTER INSERT ON webhook_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_webhook_event_count();

CREATE OR REPLACE TRIGGER webhook_event_count_delete AFTER DELETE ON webhook_events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_webhook_event_count();

CREATE OR REPLACE TRIGGER webhook_event_count_update AFTER UPDATE OF state ON webhook_events
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION cw_webhook_event_count();

CREATE OR REPLACE TRIGGER webhook_event_count_no_truncate BEFORE TRUNCATE ON webhook_events
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();

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

CREATE OR REPLACE TRIGGER chain_deposit_count_insert AFTER INSERT ON chain_deposits
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_chain_deposit_count();

CREATE OR REPLACE TRIGGER chain_deposit_count_delete AFTER DELETE ON chain_deposits
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_chain_deposit_count();

CREATE OR REPLACE TRIGGER chain_deposit_count_update AFTER UPDATE OF status ON chain_deposits
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION cw_chain_deposit_count();

CREATE OR REPLACE TRIGGER chain_deposit_count_no_truncate BEFORE TRUNCATE ON chain_deposits
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
