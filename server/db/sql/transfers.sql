-- Wallet transfers: a batch of them in one call and one commit (server/modules/wallet/transfer-batch.ts).
--
-- The functions and triggers in force, each in exactly one file of server/db/sql/ with the text the newest migration
-- gave it. Migrations restate them; these files are not run. To change one, write a migration that restates it
-- (CREATE OR REPLACE; a constraint trigger is dropped and created again) and put the same text here:
-- tests/integration/sql-definitions.test.ts holds these files to a migrated database.

-- Money as the API writes it: cents → "1250.00", "-0.05". The same rule as formatMoney in shared/money.ts.
CREATE OR REPLACE FUNCTION cw_money(cents bigint) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE WHEN cents < 0 THEN '-' ELSE '' END || (abs(cents) / 100)::text || '.' || lpad((abs(cents) % 100)::text, 2, '0')
$$;

-- Money as people read it (shared/vocabulary.ts centsText): currency first, thousands separated, "USDT 1,250.00".
CREATE OR REPLACE FUNCTION cw_money_text(cents bigint, currency text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT currency || ' ' || CASE WHEN cents < 0 THEN '-' ELSE '' END
    || to_char(abs(cents) / 100, 'FM999,999,999,999,999,990') || '.' || lpad((abs(cents) % 100)::text, 2, '0')
$$;

-- Transfers between master wallets that reach one instance together, posted in one transaction (one commit), each as
-- if alone. Every key is claimed in one statement, then the batch's wallets are locked in id order (found by their
-- whole unique key, locked one by one by primary key: no plan can read more), each transfer is decided in order
-- against balances kept in memory, and the accepted ones are written together through cw_post_transfers (ledger.sql)
-- with the receivers' notifications and the requests' idempotency answers. A refusal is decided before anything of
-- it is written, and its key claim is withdrawn; an error the batch did not expect aborts it all, and the caller then
-- posts each transfer alone. Answers a row per transfer, in order: 'ok', 'key_taken', or 'error' with 'cw:<reason>'.
-- The answer stored for a key is the caller's JSON with three placeholders filled in from the locked rows.
-- With p_mail_lease the receivers' mail is claimed for the caller until then and answered to it to send; without,
-- it is pending and due at once, for the mail job.
CREATE OR REPLACE FUNCTION cw_transfer_batch(p jsonb, p_mail_lease timestamptz DEFAULT NULL)
RETURNS TABLE (i int, outcome text, to_name text, balance_before bigint, balance_after bigint, error text, mails jsonb)
-- Its statements look rows up by key whatever the batch holds: planned once per connection, not per call
-- (the planner otherwise re-planned the notifications' insert on every call, for more than it ran).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  t record;
  r record;
  n int := 0;
  claimed text[];
  owners uuid[];
  wallets uuid[];
  wid uuid;
  claim text;
  -- the batch's wallets, locked: owner, account, running balance, what the checks need
  w_owner uuid[] := '{}'; w_id uuid[] := '{}'; w_bal bigint[] := '{}'; w_start bigint[] := '{}';
  w_neg boolean[] := '{}'; w_src_name text[] := '{}'; w_dst_name text[] := '{}'; w_active boolean[] := '{}';
  s int; d int;
  reason text;
  -- each transfer's answer, in order
  o_out text[] := '{}'; o_name text[] := '{}'; o_before bigint[] := '{}'; o_after bigint[] := '{}'; o_err text[] := '{}';
  o_id uuid[] := '{}';
  -- the mail claimed for the caller, per transfer
  m_tr uuid[] := '{}'; m_mails jsonb[] := '{}';
  -- the rows to write
  tr_id uuid[] := '{}'; tr_ref text[] := '{}'; tr_desc text[] := '{}'; tr_meta jsonb[] := '{}';
  tr_by uuid[] := '{}'; tr_at timestamptz[] := '{}';
  en_id uuid[] := '{}'; en_tr int[] := '{}'; en_acc uuid[] := '{}'; en_amt bigint[] := '{}';
  no_to uuid[] := '{}'; no_from text[] := '{}'; no_amt bigint[] := '{}'; no_ref text[] := '{}';
  ans_p text[] := '{}'; ans_k text[] := '{}'; ans_body text[] := '{}'; ans_at timestamptz[] := '{}';
  drop_p text[] := '{}'; drop_k text[] := '{}';
BEGIN
  -- Keys first, in one order for every batch, then wallets in id order (as before): no two batches or
  -- lone transfers wait on each other in a cycle.
  WITH ins AS (
    INSERT INTO idempotency_keys (principal, key, request_hash, state, created_at)
    SELECT x.principal, x.key, x.request_hash, 'in_flight', x.at
    FROM jsonb_to_recordset(p) AS x(principal text, key text, request_hash text, at timestamptz)
    WHERE x.key IS NOT NULL
    ORDER BY 1, 2
    ON CONFLICT DO NOTHING
    RETURNING idempotency_keys.principal, idempotency_keys.key
  )
  SELECT coalesce(array_agg(jsonb_build_array(ins.principal, ins.key)::text), '{}') INTO claimed FROM ins;
  owners := ARRAY(SELECT (x->>'from')::uuid FROM jsonb_array_elements(p) x UNION SELECT (x->>'to')::uuid FROM jsonb_array_elements(p) x);

  -- Each owner's wallet by the whole unique key (kind, owner_id), then each wallet locked by primary key, in id
  -- order: one row per statement, so no plan can read more. "kind = 'wallet' AND owner_id = ANY (owners)" joined
  -- to the owners was planned, with missing or stale statistics, as a read of every wallet and every user.
  wallets := ARRAY(
    SELECT x.id
    FROM (SELECT (SELECT a.id FROM ledger_accounts a WHERE a.kind = 'wallet' AND a.owner_id = o.owner) AS id
          FROM unnest(owners) AS o(owner)) x
    WHERE x.id IS NOT NULL
    ORDER BY x.id);
  FOREACH wid IN ARRAY wallets
  LOOP
    SELECT a.id, a.owner_id, a.balance, a.allow_negative, c.company_name, c.deactivated_at AS company_off,
      u.role, u.first_name, u.last_name, u.deactivated_at AS user_off, u.deleted_at AS user_deleted
    INTO r
    FROM ledger_accounts a
    LEFT JOIN companies c ON c.id = a.owner_id
    LEFT JOIN users u ON u.id = a.owner_id
    WHERE a.id = wid
    FOR UPDATE OF a;
    w_owner := w_owner || r.owner_id; w_id := w_id || r.id; w_bal := w_bal || r.balance; w_start := w_start || r.balance;
    w_neg := w_neg || r.allow_negative;
    w_src_name := w_src_name || coalesce(r.company_name, r.first_name || ' ' || r.last_name);
    w_dst_name := w_dst_name || CASE WHEN r.company_name IS NOT NULL THEN r.company_name
                                     WHEN r.role = 'Individual' THEN r.first_name || ' ' || r.last_name END;
    w_active := w_active || CASE WHEN r.company_name IS NOT NULL THEN r.company_off IS NULL
                                 ELSE r.user_off IS NULL AND r.user_deleted IS NULL END;
  END LOOP;

  FOR t IN
    SELECT x.*
    FROM jsonb_array_elements(p) WITH ORDINALITY AS e(v, k),
      jsonb_to_record(e.v) AS x("from" uuid, "to" uuid, amount bigint, transfer_id uuid, entry_from uuid, entry_to uuid,
        reference text, description text, meta jsonb, created_by uuid, at timestamptz, principal text, key text,
        answer text)
    ORDER BY e.k
  LOOP
    reason := NULL;
    claim := NULL;
    IF t.key IS NOT NULL THEN
      claim := jsonb_build_array(t.principal, t.key)::text;
      IF NOT claim = ANY (claimed) THEN
        o_out := o_out || 'key_taken'::text; o_name := o_name || NULL::text; o_before := o_before || NULL::bigint;
        o_after := o_after || NULL::bigint; o_err := o_err || NULL::text; o_id := o_id || NULL::uuid;
        n := n + 1;
        CONTINUE;
      END IF;
      -- a key sent twice in one batch is the first one's: the second finds it taken
      claimed := array_remove(claimed, claim);
    END IF;
    s := array_position(w_owner, t."from");
    d := CASE WHEN t."to" IS DISTINCT FROM t."from" THEN array_position(w_owner, t."to") END;
    IF t.amount IS NULL OR t.amount <= 0 THEN reason := 'cw:bad_amount';
    ELSIF s IS NULL THEN reason := 'cw:source_not_found';
    ELSIF d IS NULL OR w_dst_name[d] IS NULL THEN reason := 'cw:target_not_found';
    ELSIF NOT w_active[d] THEN reason := 'cw:target_inactive';
    ELSIF w_bal[s] - t.amount < 0 AND NOT w_neg[s] THEN reason := 'cw:insufficient_funds';
    END IF;
    IF reason IS NOT NULL THEN
      IF claim IS NOT NULL THEN drop_p := drop_p || t.principal; drop_k := drop_k || t.key; END IF;
      o_out := o_out || 'error'::text; o_name := o_name || NULL::text; o_before := o_before || NULL::bigint;
      o_after := o_after || NULL::bigint; o_err := o_err || reason; o_id := o_id || NULL::uuid;
      n := n + 1;
      CONTINUE;
    END IF;

    tr_id := tr_id || t.transfer_id; tr_ref := tr_ref || t.reference; tr_desc := tr_desc || t.description;
    tr_meta := tr_meta || t.meta; tr_by := tr_by || t.created_by; tr_at := tr_at || t.at;
    en_id := en_id || t.entry_from || t.entry_to;
    en_tr := en_tr || cardinality(tr_id) || cardinality(tr_id);
    en_acc := en_acc || w_id[s] || w_id[d];
    en_amt := en_amt || -t.amount || t.amount;
    no_to := no_to || t."to"; no_from := no_from || w_src_name[s]; no_amt := no_amt || t.amount;
    no_ref := no_ref || (t.meta->>'reference');
    o_out := o_out || 'ok'::text; o_name := o_name || w_dst_name[d]; o_before := o_before || w_bal[s];
    o_after := o_after || (w_bal[s] - t.amount); o_err := o_err || NULL::text; o_id := o_id || t.transfer_id;
    IF claim IS NOT NULL THEN
      ans_p := ans_p || t.principal; ans_k := ans_k || t.key; ans_at := ans_at || t.at;
      ans_body := ans_body || replace(replace(replace(t.answer,
        '"__cw_to_name__"', to_json(w_dst_name[d])::text),
        '"__cw_balance_before__"', to_json(cw_money(w_bal[s]))::text),
        '"__cw_balance_after__"', to_json(cw_money(w_bal[s] - t.amount))::text);
    END IF;
    w_bal[s] := w_bal[s] - t.amount;
    w_bal[d] := w_bal[d] + t.amount;
    n := n + 1;
  END LOOP;

  IF cardinality(tr_id) > 0 THEN
    -- Written as every posting is (cw_post_transfers), from the balances the wallets were locked with.
    PERFORM cw_post_transfers(tr_id, array_fill('transfer'::text, ARRAY[cardinality(tr_id)]), tr_ref, tr_desc, tr_meta,
      tr_by, tr_at, en_id, en_tr, en_acc, en_amt, w_id, w_start);

    -- The receiving wallet's people hear of it in this same transaction. The same audience and mail rule
    -- as notify() in server/modules/notifications/service.ts: the Individual, or every live user of the
    -- company; mail unless they turned transfer mail off. With p_mail_lease the mail is claimed for the caller
    -- until then, as a claim by sendDueMail would (attempt 1), and answered to it to send.
    WITH ins AS (
    INSERT INTO notifications (id, user_id, type, title, body, link, event_key, mail_state, mail_attempts, mail_next_attempt_at, created_at)
    SELECT gen_random_uuid(), who.id, 'transfer_received', 'You received ' || cw_money_text(x.amt, 'USDT'),
      coalesce(x.src, 'Another wallet') || ' sent ' || cw_money_text(x.amt, 'USDT') || ' to your master wallet.'
        || CASE WHEN coalesce(x.ref, '') <> '' THEN chr(10) || 'Reference: ' || x.ref ELSE '' END,
      '/portal/wallet-transfers', 'transfer:' || x.tr::text,
      CASE WHEN coalesce(s.mail, true) THEN 'pending' END,
      CASE WHEN coalesce(s.mail, true) AND p_mail_lease IS NOT NULL THEN 1 ELSE 0 END,
      CASE WHEN coalesce(s.mail, true) THEN coalesce(p_mail_lease, x.at) END, x.at
    FROM unnest(tr_id, no_to, no_from, no_amt, no_ref, tr_at) AS x(tr, dst, src, amt, ref, at)
    CROSS JOIN LATERAL (
      SELECT u.id FROM users u
      WHERE u.id = x.dst AND u.company_id IS NULL
        AND u.deleted_at IS NULL AND u.deactivated_at IS NULL AND u.password_hash IS NOT NULL
      UNION ALL
      SELECT u.id FROM users u
      WHERE u.company_id = x.dst
        AND u.deleted_at IS NULL AND u.deactivated_at IS NULL AND u.password_hash IS NOT NULL
    ) who
    LEFT JOIN notification_settings s ON s.user_id = who.id AND s.type = 'transfer_received'
    RETURNING id, user_id, type, title, body, link, event_key, mail_state, mail_attempts
    ), mail_of AS (
      SELECT substr(ins.event_key, 10)::uuid AS tr,
        jsonb_agg(jsonb_build_object('id', ins.id, 'type', ins.type, 'title', ins.title, 'body', ins.body,
          'link', ins.link, 'attempts', ins.mail_attempts, 'email', u.email, 'firstName', u.first_name,
          'leaseEnds', p_mail_lease)) AS m
      FROM ins JOIN users u ON u.id = ins.user_id
      WHERE ins.mail_state = 'pending' AND p_mail_lease IS NOT NULL
      GROUP BY 1
    )
    SELECT coalesce(array_agg(mail_of.tr), '{}'), coalesce(array_agg(mail_of.m), '{}') INTO m_tr, m_mails FROM mail_of;
  END IF;

  FOR s IN 1 .. cardinality(ans_p) LOOP
    UPDATE idempotency_keys SET state = 'done', response_status = 200, response_body = ans_body[s],
      response_content_type = 'application/json; charset=utf-8', completed_at = ans_at[s]
    WHERE principal = ans_p[s] AND key = ans_k[s];
  END LOOP;
  FOR s IN 1 .. cardinality(drop_p) LOOP
    DELETE FROM idempotency_keys WHERE principal = drop_p[s] AND key = drop_k[s];
  END LOOP;

  RETURN QUERY
  SELECT (u.k - 1)::int, u.o, u.nm, u.bb, u.ba, u.er, m_mails[array_position(m_tr, u.id)]
  FROM unnest(o_out, o_name, o_before, o_after, o_err, o_id) WITH ORDINALITY AS u(o, nm, bb, ba, er, id, k)
  ORDER BY u.k;
END $$;

-- One transfer as SQL callers post it: cw_transfer_batch with a batch of one, raising a refusal ('cw:<reason>') so
-- that nothing of it stays, its key claim included.
CREATE OR REPLACE FUNCTION cw_transfer(
  p_from uuid, p_to uuid, p_amount bigint, p_transfer_id uuid, p_entry_from uuid, p_entry_to uuid, p_reference text,
  p_description text, p_meta jsonb, p_created_by uuid, p_at timestamptz,
  p_principal text, p_key text, p_request_hash text, p_answer text
) RETURNS TABLE (outcome text, to_name text, balance_before bigint, balance_after bigint) LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  SELECT * INTO r FROM cw_transfer_batch(jsonb_build_array(jsonb_build_object(
    'from', p_from, 'to', p_to, 'amount', p_amount, 'transfer_id', p_transfer_id, 'entry_from', p_entry_from,
    'entry_to', p_entry_to, 'reference', p_reference, 'description', p_description, 'meta', p_meta,
    'created_by', p_created_by, 'at', p_at, 'principal', p_principal, 'key', p_key, 'request_hash', p_request_hash,
    'answer', p_answer)));
  -- a refusal undoes everything, the claim of its key included
  IF r.outcome = 'error' THEN RAISE EXCEPTION '%', r.error; END IF;
  RETURN QUERY SELECT r.outcome, r.to_name, r.balance_before, r.balance_after;
END $$;
