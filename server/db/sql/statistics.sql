-- Kept totals per UTC day: the staff's Statistics screen (view-statistics and its series) over any range of days.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- Each table is keyed by the UTC day of the time the screen filters on, and each statement adds to its backend's slot
-- (pg_backend_pid() % 16), rows locked in key order, so concurrent writers seldom wait on one row and never deadlock
-- (migration 0055). A figure for a range of days is a sum over its days and slots.

-- The net amount posted per day to the accounts whose balances the screen shows (wallets, cards and their holds), by
-- the card's purpose: an account's balance as of a day's end is the sum of its entries up to then (its entries chain
-- from zero, the ledger's guards see to it). Lookups by primary key per new entry, as cw_wallet_movement_totals does:
-- as a join, the planner read every account (transfer-batch.test.ts counts the reads).
CREATE OR REPLACE FUNCTION cw_balance_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_day_totals AS x (day, account_kind, purpose, slot, amount)
  SELECT (e.created_at AT TIME ZONE 'UTC')::date, e.kind,
         coalesce(CASE WHEN e.kind <> 'wallet' THEN (SELECT c.purpose FROM cards c WHERE c.id = e.owner_id) END, ''),
         pg_backend_pid() % 16, sum(e.amount)
  FROM (
    SELECT n.created_at, n.amount,
           (SELECT l.kind FROM ledger_accounts l WHERE l.id = n.account_id) AS kind,
           (SELECT l.owner_id FROM ledger_accounts l WHERE l.id = n.account_id) AS owner_id
    FROM new_entries n
  ) e
  WHERE e.kind IN ('wallet', 'card', 'card_hold')
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (day, account_kind, purpose, slot) DO UPDATE SET amount = x.amount + EXCLUDED.amount;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER ledger_entries_balance_day_totals AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION cw_balance_day_totals();

-- Transfers per day and kind with their fees (meta.fees_total): transfers are never changed or removed.
CREATE OR REPLACE FUNCTION cw_transfer_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transfer_day_totals AS x (day, kind, slot, transfers, fees)
  SELECT (n.created_at AT TIME ZONE 'UTC')::date, n.kind, pg_backend_pid() % 16, count(*),
         coalesce(sum((n.meta->>'fees_total')::bigint), 0)
  FROM new_transfers n
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (day, kind, slot) DO UPDATE
    SET transfers = x.transfers + EXCLUDED.transfers, fees = x.fees + EXCLUDED.fees;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER ledger_transfers_day_totals AFTER INSERT ON ledger_transfers
  REFERENCING NEW TABLE AS new_transfers FOR EACH STATEMENT EXECUTE FUNCTION cw_transfer_day_totals();

-- Top-ups per day of their decision (-infinity: not decided), method and state. A change takes the old rows off and
-- adds the new ones in one statement, each group written only when its figures moved.
CREATE OR REPLACE FUNCTION cw_topup_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  dd date[] := '{}'; m text[] := '{}'; s text[] := '{}'; d int[] := '{}'; a bigint[] := '{}';
BEGIN
  -- A transition table exists only for the operations that have it: each is read in its own branch.
  IF TG_OP <> 'DELETE' THEN
    SELECT dd || array_agg(coalesce((n.decided_at AT TIME ZONE 'UTC')::date, '-infinity')), m || array_agg(n.method),
           s || array_agg(n.state), d || array_agg(1), a || array_agg(n.amount)
    INTO dd, m, s, d, a FROM new_rows n;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT dd || array_agg(coalesce((o.decided_at AT TIME ZONE 'UTC')::date, '-infinity')), m || array_agg(o.method),
           s || array_agg(o.state), d || array_agg(-1), a || array_agg(-o.amount)
    INTO dd, m, s, d, a FROM old_rows o;
  END IF;
  INSERT INTO topup_day_totals AS x (day, method, state, slot, rows, amount)
  SELECT u.day, u.method, u.state, pg_backend_pid() % 16, sum(u.n), sum(u.amount)
  FROM unnest(dd, m, s, d, a) AS u(day, method, state, n, amount)
  GROUP BY 1, 2, 3
  HAVING sum(u.n) <> 0 OR sum(u.amount) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (day, method, state, slot) DO UPDATE
    SET rows = x.rows + EXCLUDED.rows, amount = x.amount + EXCLUDED.amount;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER topup_day_totals_insert AFTER INSERT ON topups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_day_totals();

CREATE OR REPLACE TRIGGER topup_day_totals_update AFTER UPDATE ON topups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_day_totals();

CREATE OR REPLACE TRIGGER topup_day_totals_delete AFTER DELETE ON topups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_topup_day_totals();

-- Card transactions per day made, kind and status, the same way. A change (a settlement or reversal changes a status)
-- a row at a time, and only when a counted column moved: not for an authorisation's other updates.
CREATE OR REPLACE FUNCTION cw_card_transaction_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  dd date[] := '{}'; k text[] := '{}'; s text[] := '{}'; d int[] := '{}'; a bigint[] := '{}';
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    dd := ARRAY[(NEW.created_at AT TIME ZONE 'UTC')::date, (OLD.created_at AT TIME ZONE 'UTC')::date];
    k := ARRAY[NEW.kind, OLD.kind]; s := ARRAY[NEW.status, OLD.status]; d := ARRAY[1, -1];
    a := ARRAY[NEW.amount, -OLD.amount];
  ELSIF TG_OP = 'INSERT' THEN
    SELECT dd || array_agg((n.created_at AT TIME ZONE 'UTC')::date), k || array_agg(n.kind), s || array_agg(n.status),
           d || array_agg(1), a || array_agg(n.amount)
    INTO dd, k, s, d, a FROM new_rows n;
  ELSE
    SELECT dd || array_agg((o.created_at AT TIME ZONE 'UTC')::date), k || array_agg(o.kind), s || array_agg(o.status),
           d || array_agg(-1), a || array_agg(-o.amount)
    INTO dd, k, s, d, a FROM old_rows o;
  END IF;
  INSERT INTO card_transaction_day_totals AS x (day, kind, status, slot, rows, amount)
  SELECT u.day, u.kind, u.status, pg_backend_pid() % 16, sum(u.n), sum(u.amount)
  FROM unnest(dd, k, s, d, a) AS u(day, kind, status, n, amount)
  GROUP BY 1, 2, 3
  HAVING sum(u.n) <> 0 OR sum(u.amount) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (day, kind, status, slot) DO UPDATE
    SET rows = x.rows + EXCLUDED.rows, amount = x.amount + EXCLUDED.amount;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER card_transaction_day_totals_insert AFTER INSERT ON card_transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_transaction_day_totals();

CREATE OR REPLACE TRIGGER card_transaction_day_totals_update
  AFTER UPDATE OF kind, status, amount, created_at ON card_transactions
  FOR EACH ROW
  WHEN ((OLD.kind, OLD.status, OLD.amount, OLD.created_at)
        IS DISTINCT FROM (NEW.kind, NEW.status, NEW.amount, NEW.created_at))
  EXECUTE FUNCTION cw_card_transaction_day_totals();

CREATE OR REPLACE TRIGGER card_transaction_day_totals_delete AFTER DELETE ON card_transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_transaction_day_totals();

-- Cards per day made, as card_count counts them (owner kind, purpose, type, active, deleted); a change a card at a
-- time and only when a counted column moved, as card_count's.
CREATE OR REPLACE FUNCTION cw_card_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  dd date[] := '{}'; o text[] := '{}'; p text[] := '{}'; ty text[] := '{}'; ac boolean[] := '{}'; de boolean[] := '{}';
  d int[] := '{}';
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    dd := ARRAY[(NEW.created_at AT TIME ZONE 'UTC')::date, (OLD.created_at AT TIME ZONE 'UTC')::date];
    o := ARRAY[cw_wallet_kind(NEW.wallet_id), cw_wallet_kind(OLD.wallet_id)]; p := ARRAY[NEW.purpose, OLD.purpose];
    ty := ARRAY[NEW.type, OLD.type]; ac := ARRAY[NEW.state = 'Active', OLD.state = 'Active'];
    de := ARRAY[NEW.deleted_at IS NOT NULL, OLD.deleted_at IS NOT NULL]; d := ARRAY[1, -1];
  ELSIF TG_OP = 'INSERT' THEN
    SELECT dd || array_agg((n.created_at AT TIME ZONE 'UTC')::date), o || array_agg(cw_wallet_kind(n.wallet_id)),
           p || array_agg(n.purpose), ty || array_agg(n.type), ac || array_agg(n.state = 'Active'),
           de || array_agg(n.deleted_at IS NOT NULL), d || array_agg(1)
    INTO dd, o, p, ty, ac, de, d FROM new_rows n;
  ELSE
    SELECT dd || array_agg((r.created_at AT TIME ZONE 'UTC')::date), o || array_agg(cw_wallet_kind(r.wallet_id)),
           p || array_agg(r.purpose), ty || array_agg(r.type), ac || array_agg(r.state = 'Active'),
           de || array_agg(r.deleted_at IS NOT NULL), d || array_agg(-1)
    INTO dd, o, p, ty, ac, de, d FROM old_rows r;
  END IF;
  INSERT INTO card_day_totals AS x (day, owner_type, purpose, type, active, deleted, slot, rows)
  SELECT u.day, u.owner_type, u.purpose, u.type, u.active, u.deleted, pg_backend_pid() % 16, sum(u.n)
  FROM unnest(dd, o, p, ty, ac, de, d) AS u(day, owner_type, purpose, type, active, deleted, n)
  GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(u.n) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (day, owner_type, purpose, type, active, deleted, slot) DO UPDATE SET rows = x.rows + EXCLUDED.rows;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER card_day_totals_insert AFTER INSERT ON cards
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_day_totals();

CREATE OR REPLACE TRIGGER card_day_totals_update
  AFTER UPDATE OF wallet_id, purpose, type, state, deleted_at, created_at ON cards
  FOR EACH ROW
  WHEN ((OLD.wallet_id, OLD.purpose, OLD.type, OLD.state = 'Active', OLD.deleted_at IS NULL, OLD.created_at)
        IS DISTINCT FROM
        (NEW.wallet_id, NEW.purpose, NEW.type, NEW.state = 'Active', NEW.deleted_at IS NULL, NEW.created_at))
  EXECUTE FUNCTION cw_card_day_totals();

CREATE OR REPLACE TRIGGER card_day_totals_delete AFTER DELETE ON cards
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_day_totals();

-- A card's purpose is set when it is issued and nothing changes it; should something, its accounts' amounts so far move
-- to the new purpose, so that the balances by purpose stay those of the cards as they are now.
CREATE OR REPLACE FUNCTION cw_card_purpose_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_day_totals AS x (day, account_kind, purpose, slot, amount)
  SELECT m.day, m.kind, m.purpose, pg_backend_pid() % 16, sum(m.amount)
  FROM (
    SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, a.kind, p.purpose, p.sign * e.amount AS amount
    FROM ledger_accounts a
    JOIN ledger_entries e ON e.account_id = a.id
    CROSS JOIN (VALUES (NEW.purpose, 1), (OLD.purpose, -1)) AS p(purpose, sign)
    WHERE a.owner_id = NEW.id AND a.kind IN ('card', 'card_hold')
  ) m
  GROUP BY 1, 2, 3
  HAVING sum(m.amount) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (day, account_kind, purpose, slot) DO UPDATE SET amount = x.amount + EXCLUDED.amount;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER card_purpose_balances AFTER UPDATE OF purpose ON cards
  FOR EACH ROW WHEN (OLD.purpose IS DISTINCT FROM NEW.purpose) EXECUTE FUNCTION cw_card_purpose_balances();
