-- Balance alerts (issue 36): a monitor per account sounds once when a posting takes the balance below its threshold,
-- and arms again once the balance is back at or above it.
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- Every posting changes balances through an UPDATE of ledger_accounts (cw_post_transfers, whichever path called it),
-- so one trigger there sees them all. It runs only for accounts marked monitored (the WHEN clause, no call at all
-- otherwise), at commit (deferred): the monitor's row is then locked only for the commit, which matters for a master
-- balance, the sum of every card of a purpose, whose cards' postings do not otherwise wait on each other. The monitor
-- keeps its balance by the changes it is told of (set under the accounts' locks when it was added), and decides the
-- crossing under its row lock: exactly once per crossing, however many postings run at once. A crossing writes the
-- balance_low notification of every live Super-Admin and Finance member (mail on unless they turned it off, as
-- shared/contract/notifications.ts mailOnByDefault says of the type), and the balance.low event in the audit trail.
CREATE OR REPLACE FUNCTION cw_balance_monitor_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
  m record;
  now_balance bigint;
  crossed boolean;
BEGIN
  k := CASE NEW.kind
    WHEN 'wallet' THEN NEW.owner_id::text
    WHEN 'fee_income' THEN 'fees'
    WHEN 'card' THEN (SELECT 'master:' || c.purpose FROM cards c WHERE c.id = NEW.owner_id)
  END;
  SELECT * INTO m FROM balance_monitors b WHERE b.account = k FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  now_balance := m.balance + (NEW.balance - OLD.balance);
  crossed := now_balance < m.below AND NOT m.fired;
  UPDATE balance_monitors SET balance = now_balance, fired = now_balance < m.below,
    crossings = m.crossings + CASE WHEN crossed THEN 1 ELSE 0 END,
    fired_at = CASE WHEN crossed THEN clock_timestamp() ELSE m.fired_at END
  WHERE id = m.id;
  IF crossed THEN
    INSERT INTO notifications (id, user_id, type, title, body, link, event_key, mail_state, mail_next_attempt_at, created_at)
    SELECT gen_random_uuid(), u.id, 'balance_low', m.label || ' is below its alert',
      m.label || ' is at ' || cw_money_text(now_balance, m.currency) || ', below the alert at '
        || cw_money_text(m.below, m.currency) || E'.\nIt alerts again only after the balance is back at or above it.',
      '/admin/balance-monitors', 'balance-monitor:' || m.id || ':low:' || (m.crossings + 1),
      CASE WHEN coalesce(s.mail, true) THEN 'pending' END, CASE WHEN coalesce(s.mail, true) THEN now() END, now()
    FROM users u
    LEFT JOIN notification_settings s ON s.user_id = u.id AND s.type = 'balance_low'
    WHERE u.role IN ('Super-Admin', 'Finance') AND u.deleted_at IS NULL AND u.deactivated_at IS NULL
      AND u.password_hash IS NOT NULL
    ON CONFLICT (user_id, event_key) DO NOTHING;
    INSERT INTO audit_log (id, actor_id, actor_email, actor_role, action, object_type, object_id, details, status, created_at)
    VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000000', 'system', 'System', 'balance.low',
      'balance_monitor', m.id::text,
      jsonb_build_object('account', m.account, 'label', m.label, 'below', cw_money(m.below),
        'balance', cw_money(now_balance), 'currency', m.currency, 'crossing', m.crossings + 1),
      200, now());
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS ledger_accounts_balance_monitor ON ledger_accounts;
CREATE CONSTRAINT TRIGGER ledger_accounts_balance_monitor AFTER UPDATE OF balance ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.monitored AND OLD.balance IS DISTINCT FROM NEW.balance)
  EXECUTE FUNCTION cw_balance_monitor_check();

-- A new card's available account is monitored when its purpose's master balance is. It takes turns (a shared
-- advisory lock) with a master monitor's creation and removal, which take the same key exclusively: a card created
-- meanwhile is either marked by them or sees their monitor here.
CREATE OR REPLACE FUNCTION cw_balance_monitor_new_card() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE k text;
BEGIN
  SELECT 'master:' || c.purpose INTO k FROM cards c WHERE c.id = NEW.owner_id;
  IF k IS NULL THEN RETURN NEW; END IF;
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('balance-monitor:' || k, 0));
  NEW.monitored := EXISTS (SELECT 1 FROM balance_monitors b WHERE b.account = k);
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS ledger_accounts_new_card_monitored ON ledger_accounts;
CREATE TRIGGER ledger_accounts_new_card_monitored BEFORE INSERT ON ledger_accounts
  FOR EACH ROW WHEN (NEW.kind = 'card') EXECUTE FUNCTION cw_balance_monitor_new_card();
