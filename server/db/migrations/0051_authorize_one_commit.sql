-- Issue 32's authorisation benchmark: cw_card_authorize restated (server/db/sql/authorizations.sql has the same text).
-- The card may be named by its id within the caller's reach, so the route needs no lookup of its own; the staff's
-- audit row is written in the same transaction, so an approval commits once; asking the company first locks and
-- writes nothing, so that call commits no write.
-- A payment the sandbox issuer brings, approved and recorded in one statement (one transaction, one commit), as
-- server/modules/cards/authorize.ts approves one (the sandbox's own records included: its authorisation, its message,
-- done, and its balance). Only approvals are decided here: it answers NULL, having written nothing, when the issuer
-- or the platform would decline, and the caller then takes the whole path in code (authorize.ts), which decides again
-- under its own locks. When the card's company decides (a decision endpoint), it answers { ask, card }, having
-- written nothing: the caller asks the company with no lock held, then calls again with mode 'company' (the amount
-- the company approved in check_amount, decided_by), and the card's own checks run again on that amount (not the
-- program's), as authorize.ts's second transaction does.
-- The checks, in authorize.ts's order, on the rows locked as it locks them: the card (NO KEY UPDATE), its two ledger
-- accounts (FOR UPDATE, in id order); the program's controls, the card's state, the prohibited merchants (decided by
-- the caller: p->>'prohibited'), the card's controls (category from the MCC by the caller; the interval starts from
-- the caller's clock), the spending limit, the balance (partial when allowed). The sandbox's card row is locked last.
-- The decision's duration runs from p->>'received_at' (the caller's wall clock when the message reached it, so the
-- wait for a connection counts, as it does on the long path) to this server's clock: clocks kept in step (NTP).
-- The card is named by its token (p->>'token'), or by its id (p->>'card_id') with the caller's reach: p->>'wallet_id'
-- when the caller reaches only that wallet's cards (NULL for staff); a card out of reach answers NULL, and the caller's
-- own lookup then answers its 404. p->'audit', when given, is the staff's audit row of the request
-- (plugins/audit.ts), written with the approval, so the request commits once.
-- Asking the company locks and writes nothing: the card is read first without a lock, and only a card whose company
-- does not decide (or the company's call) is read again under its lock, so the first call of two commits no write.
-- Answers { approved_amount, row } (row: the card_transactions row as to_jsonb writes it).
CREATE OR REPLACE FUNCTION cw_card_authorize(p jsonb) RETURNS jsonb
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  at timestamptz := (p->>'now')::timestamptz;
  asked bigint := (p->>'amount')::bigint;
  company boolean := coalesce(p->>'mode' = 'company', false);
  -- what the checks weigh: on the company's call, the amount it approved
  want bigint := coalesce((p->>'check_amount')::bigint, asked);
  ep record;
  cat text := p->>'category';
  ctry text := upper(coalesce(p->>'country', ''));
  sc record;
  c record;
  ctl record;
  prog record;
  acc_card record;
  acc_hold record;
  amt bigint;
  n bigint;
  tok text := p->>'token';
  asking boolean := false;
  tr uuid := gen_random_uuid();
  e1 uuid := gen_random_uuid();
  e2 uuid := gen_random_uuid();
  row_out jsonb;
BEGIN
  -- the card, in the caller's reach; read again under its lock unless its company is to be asked first
  IF p ? 'card_id' THEN
    SELECT * INTO c FROM cards WHERE id = (p->>'card_id')::uuid;
    IF NOT FOUND OR (p->>'wallet_id' IS NOT NULL AND c.wallet_id IS DISTINCT FROM (p->>'wallet_id')::uuid) THEN
      RETURN NULL;
    END IF;
    tok := c.issuer_token;
  ELSE
    SELECT * INTO c FROM cards WHERE issuer_token = tok;
    IF NOT FOUND THEN RETURN NULL; END IF;
  END IF;
  -- the issuer's side: a card it would decline (terminated, frozen, expired) is the code path's
  SELECT s.status, s.exp_month, s.exp_year INTO sc FROM sandbox_cards s WHERE s.token = tok;
  IF NOT FOUND OR sc.status <> 'active' OR sc.exp_year < extract(year FROM at AT TIME ZONE 'UTC')
     OR (sc.exp_year = extract(year FROM at AT TIME ZONE 'UTC') AND sc.exp_month < extract(month FROM at AT TIME ZONE 'UTC'))
  THEN
    RETURN NULL;
  END IF;
  IF NOT company THEN
    SELECT d.company_id, d.url, d.timeout_ms, d.on_timeout, d.signing_secret INTO ep
    FROM decision_endpoints d WHERE d.company_id = c.wallet_id;
    asking := FOUND;
  END IF;
  IF NOT asking THEN
    SELECT * INTO c FROM cards WHERE id = c.id FOR NO KEY UPDATE;
  END IF;
  SELECT a.id, a.balance INTO acc_card FROM ledger_accounts a WHERE a.owner_id = c.id AND a.kind = 'card';
  SELECT a.id, a.balance INTO acc_hold FROM ledger_accounts a WHERE a.owner_id = c.id AND a.kind = 'card_hold';
  IF acc_card.id IS NULL OR acc_hold.id IS NULL THEN RETURN NULL; END IF;
  -- locked in id order, as every posting locks them; the balances read under the locks
  IF NOT asking THEN
    PERFORM 1 FROM ledger_accounts a WHERE a.id = least(acc_card.id, acc_hold.id) FOR UPDATE;
    PERFORM 1 FROM ledger_accounts a WHERE a.id = greatest(acc_card.id, acc_hold.id) FOR UPDATE;
    SELECT a.balance INTO acc_card.balance FROM ledger_accounts a WHERE a.id = acc_card.id;
    SELECT a.balance INTO acc_hold.balance FROM ledger_accounts a WHERE a.id = acc_hold.id;
  END IF;

  -- the program's controls
  SELECT * INTO prog FROM program_controls WHERE id = 1;
  IF FOUND AND NOT company AND ((cat IS NOT NULL AND cat = ANY (prog.blocked_categories))
                OR (ctry <> '' AND ctry = ANY (prog.blocked_countries))) THEN
    RETURN NULL;
  END IF;
  -- the card's state, the prohibited merchants
  IF c.deleted_at IS NOT NULL OR c.suspended OR c.flagged OR c.state <> 'Active' OR p->>'prohibited' IS NOT NULL THEN
    RETURN NULL;
  END IF;
  -- the card's controls
  SELECT * INTO ctl FROM card_controls WHERE card_id = c.id;
  IF FOUND THEN
    IF (cardinality(ctl.allowed_categories) > 0 AND NOT (cat IS NOT NULL AND cat = ANY (ctl.allowed_categories)))
       OR (cat IS NOT NULL AND cat = ANY (ctl.blocked_categories))
       OR (cardinality(ctl.allowed_countries) > 0 AND NOT (ctry = ANY (ctl.allowed_countries)))
       OR ctry = ANY (ctl.blocked_countries)
       OR (ctl.per_transaction_limit IS NOT NULL AND want > ctl.per_transaction_limit) THEN
      RETURN NULL;
    END IF;
    IF ctl.max_approvals_count IS NOT NULL AND ctl.max_approvals_interval IS NOT NULL THEN
      SELECT count(*) INTO n FROM card_transactions t
      WHERE t.card_id = c.id AND t.kind = 'authorization' AND t.status <> 'declined'
        AND t.created_at >= coalesce((p->'velocity_since'->>ctl.max_approvals_interval)::timestamptz, '-infinity');
      IF n >= ctl.max_approvals_count THEN RETURN NULL; END IF;
    END IF;
  END IF;
  -- the spending limit (media cards)
  IF c.spending_limit IS NOT NULL AND c.purpose = 'media' THEN
    SELECT coalesce(sum(t.amount), 0) INTO n FROM card_transactions t
    WHERE t.card_id = c.id AND t.kind = 'authorization' AND t.status IN ('approved', 'settled')
      AND t.created_at >= coalesce((p->'spend_since'->>coalesce(c.spending_control, 'lifetime'))::timestamptz, '-infinity');
    IF n + want > c.spending_limit + c.additional_spending_limit THEN RETURN NULL; END IF;
  END IF;
  -- the balance
  IF acc_card.balance >= want THEN
    amt := want;
  ELSIF (p->>'partial')::boolean AND acc_card.balance > 0 THEN
    amt := acc_card.balance;
  ELSE
    RETURN NULL;
  END IF;
  -- the company decides
  IF asking THEN
    RETURN jsonb_build_object('ask', jsonb_build_object('amount', amt, 'company_id', ep.company_id, 'url', ep.url,
        'timeout_ms', ep.timeout_ms, 'on_timeout', ep.on_timeout, 'signing_secret', ep.signing_secret),
      'card', jsonb_build_object('id', c.id, 'masked_number', c.masked_number, 'last4', c.last4,
        'purpose', c.purpose, 'nickname', c.nickname));
  END IF;

  -- the hold: card -> card_hold, entries by account id
  PERFORM cw_post_transfers(
    ARRAY[tr], ARRAY['card_spend'], ARRAY['AUTH-' || (p->>'ref')], ARRAY['Payment at ' || (p->>'merchant')],
    ARRAY[jsonb_build_object('card_id', c.id, 'card_number', c.masked_number, 'merchant', p->>'merchant',
                             'stage', 'authorized')],
    ARRAY[NULL::uuid], ARRAY[at],
    CASE WHEN acc_card.id < acc_hold.id THEN ARRAY[e1, e2] ELSE ARRAY[e2, e1] END,
    ARRAY[1, 1],
    CASE WHEN acc_card.id < acc_hold.id THEN ARRAY[acc_card.id, acc_hold.id] ELSE ARRAY[acc_hold.id, acc_card.id] END,
    CASE WHEN acc_card.id < acc_hold.id THEN ARRAY[-amt, amt] ELSE ARRAY[amt, -amt] END,
    CASE WHEN acc_card.id < acc_hold.id THEN ARRAY[acc_card.id, acc_hold.id] ELSE ARRAY[acc_hold.id, acc_card.id] END,
    CASE WHEN acc_card.id < acc_hold.id THEN ARRAY[acc_card.balance, acc_hold.balance]
         ELSE ARRAY[acc_hold.balance, acc_card.balance] END
  );
  INSERT INTO card_transactions (id, card_id, kind, status, amount, held, currency, merchant, country, mcc,
    description, decided_by, decision_ms, issuer_reference, ledger_transfer_id, created_at, updated_at)
  VALUES ((p->>'id')::uuid, c.id, 'authorization', 'approved', amt, amt, p->>'currency', p->>'merchant',
    p->>'country', p->>'mcc',
    CASE WHEN amt < asked
      THEN 'Payment at ' || (p->>'merchant') || ': ' || cw_money_text(amt, 'USD') || ' of '
           || cw_money_text(asked, 'USD') || ' approved'
      ELSE 'Payment at ' || (p->>'merchant') END,
    CASE WHEN company THEN p->>'decided_by' ELSE 'platform' END, greatest(0, round(extract(epoch FROM clock_timestamp() - (p->>'received_at')::timestamptz) * 1000))::int,
    p->>'ref', tr, at, at)
  RETURNING to_jsonb(card_transactions.*) INTO row_out;
  -- an approval ends a streak of declines for insufficient funds
  UPDATE cards SET insufficient_streak = 0, updated_at = at WHERE id = c.id;
  -- the webhook, when the card's company listens
  PERFORM 1 FROM callback_endpoints e WHERE e.company_id = c.wallet_id AND e.active AND e.revoked_at IS NULL;
  IF FOUND THEN
    INSERT INTO webhook_events (id, message_id, company_id, type, payload, state, next_attempt_at, created_at)
    VALUES (gen_random_uuid(), p->>'message_id', c.wallet_id, 'card.authorization.approved',
      jsonb_build_object('type', 'card.authorization.approved', 'timestamp', p->>'now', 'data', jsonb_build_object(
        'card_id', c.id, 'nickname', c.nickname, 'last4', c.last4,
        'brand', CASE c.purpose WHEN 'media' THEN 'Visa' WHEN 'general' THEN 'Mastercard' ELSE 'Tokenised Cards' END,
        'type', c.type, 'transaction_id', p->>'id', 'amount', cw_money(amt), 'currency', p->>'currency',
        'merchant', p->>'merchant', 'country', p->>'country', 'mcc', p->>'mcc',
        'requested_amount', cw_money(asked), 'available_balance', cw_money(acc_card.balance - amt))),
      'pending', at, at);
  END IF;

  -- the sandbox issuer's records: its authorisation, its message (done), its balance
  INSERT INTO sandbox_authorizations (id, card_token, amount, currency, merchant, country, mcc, status, created_at,
    updated_at)
  VALUES ((p->>'ref')::uuid, tok, amt, p->>'currency', p->>'merchant', p->>'country', p->>'mcc', 'approved',
    at, at);
  INSERT INTO sandbox_messages (id, kind, card_token, authorization_id, payload, state, available_delta, created_at)
  VALUES ((p->>'ref')::uuid, 'authorization', tok, (p->>'ref')::uuid, p->'payload' || jsonb_build_object('token', tok),
    'done', -amt, at);
  UPDATE sandbox_cards SET balance = balance - amt, updated_at = at WHERE token = tok;
  -- the staff's audit row of the request
  IF p->'audit' IS NOT NULL AND jsonb_typeof(p->'audit') = 'object' THEN
    INSERT INTO audit_log (id, actor_id, actor_email, actor_role, action, object_type, object_id, details, status, ip,
      request_id, created_at)
    VALUES ((p->'audit'->>'id')::uuid, (p->'audit'->>'actor_id')::uuid, p->'audit'->>'actor_email',
      p->'audit'->>'actor_role', p->'audit'->>'action', p->'audit'->>'object_type', p->'audit'->>'object_id',
      coalesce(p->'audit'->'details', '{}'::jsonb), (p->'audit'->>'status')::bigint, p->'audit'->>'ip',
      p->'audit'->>'request_id', at);
  END IF;
  RETURN jsonb_build_object('approved_amount', amt, 'row', row_out);
END $$;
