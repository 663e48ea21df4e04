-- One way to write a posting. cw_post_transfers writes transfers, their entries and the accounts' new balances; both
-- who post call it: server/modules/ledger/post.ts (one transfer, after locking its accounts) and cw_transfer_batch
-- (a batch of wallet transfers, in place of its own three writes). What may be posted stays each caller's to check, on
-- the accounts it locked (FOR UPDATE, in id order), whose balances before the first transfer it passes (a_id, a_balance).
-- - a ledger_transfers row per transfer, in the order given;
-- - their entries (e_transfer: the transfer's position in t_*), transfer by transfer and by account id within one,
--   each from its account's balance so far: balance_before -> balance_after chains in seq order;
-- - an account's balance set to its last entry's balance_after, only where it changed, one statement per account by
--   primary key (an update joined to arrays could be planned as a scan of the accounts).
-- A batch's entries within a transfer are now in account-id order, as post.ts always wrote them, rather than sender
-- first: each account's chain is unchanged, and nothing reads the order within a transfer.
CREATE FUNCTION cw_post_transfers(
  t_id uuid[], t_kind text[], t_reference text[], t_description text[], t_meta jsonb[], t_created_by uuid[],
  t_at timestamptz[], e_id uuid[], e_transfer int[], e_account uuid[], e_amount bigint[], a_id uuid[], a_balance bigint[]
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bal bigint[] := a_balance;
  k int;
  j int;
  -- the entries to write, in order, with their figures
  n_id uuid[] := '{}'; n_tr uuid[] := '{}'; n_acc uuid[] := '{}'; n_amt bigint[] := '{}';
  n_before bigint[] := '{}'; n_after bigint[] := '{}'; n_at timestamptz[] := '{}';
BEGIN
  INSERT INTO ledger_transfers (id, kind, reference, description, meta, created_by, created_at)
  SELECT u.id, u.kind, u.ref, u.des, u.meta, u.by, u.at
  FROM unnest(t_id, t_kind, t_reference, t_description, t_meta, t_created_by, t_at) AS u(id, kind, ref, des, meta, by, at);

  FOR k IN SELECT u.k::int FROM unnest(e_transfer, e_account) WITH ORDINALITY AS u(tr, acc, k) ORDER BY u.tr, u.acc
  LOOP
    j := array_position(a_id, e_account[k]);
    IF j IS NULL THEN
      RAISE EXCEPTION 'ledger: account % is posted to without its balance', e_account[k];
    END IF;
    n_id := n_id || e_id[k]; n_tr := n_tr || t_id[e_transfer[k]]; n_acc := n_acc || e_account[k];
    n_amt := n_amt || e_amount[k]; n_at := n_at || t_at[e_transfer[k]];
    n_before := n_before || bal[j];
    bal[j] := bal[j] + e_amount[k];
    n_after := n_after || bal[j];
  END LOOP;
  INSERT INTO ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
  SELECT u.id, u.tr, u.acc, u.amt, u.bb, u.ba, u.at
  FROM unnest(n_id, n_tr, n_acc, n_amt, n_before, n_after, n_at) WITH ORDINALITY AS u(id, tr, acc, amt, bb, ba, at, k)
  ORDER BY u.k;

  FOR j IN 1 .. coalesce(cardinality(a_id), 0) LOOP
    IF bal[j] <> a_balance[j] THEN UPDATE ledger_accounts SET balance = bal[j] WHERE id = a_id[j]; END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- cw_transfer_batch as in 0028, writing through cw_post_transfers.
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
    SELECT gen_random_uuid(), who.id, 'transfer_received', 'You received USDT ' || cw_money(x.amt),
      coalesce(x.src, 'Another wallet') || ' sent USDT ' || cw_money(x.amt) || ' to your master wallet.'
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
