-- cw_transfer (0013) now also writes the receiving side's notifications, in the transfer's own
-- transaction and round trip. Otherwise unchanged.
CREATE OR REPLACE FUNCTION cw_transfer(
  p_from uuid, p_to uuid, p_amount bigint, p_transfer_id uuid, p_entry_from uuid, p_entry_to uuid, p_reference text,
  p_description text, p_meta jsonb, p_created_by uuid, p_at timestamptz,
  p_principal text, p_key text, p_request_hash text, p_answer text
) RETURNS TABLE (outcome text, to_name text, balance_before bigint, balance_after bigint) LANGUAGE plpgsql AS $$
DECLARE
  r record;
  src_id uuid; src_balance bigint; src_negative boolean;
  dst_id uuid; dst_balance bigint; dst_name text; dst_active boolean;
  src_name text;
  body text;
BEGIN
  IF p_amount <= 0 THEN RAISE EXCEPTION 'cw:bad_amount'; END IF;
  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (principal, key, request_hash, state, created_at)
    VALUES (p_principal, p_key, p_request_hash, 'in_flight', p_at) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'key_taken'::text, NULL::text, NULL::bigint, NULL::bigint;
      RETURN;
    END IF;
  END IF;
  FOR r IN
    SELECT a.id, a.owner_id, a.balance, a.allow_negative, c.company_name, c.deactivated_at AS company_off,
      u.role, u.first_name, u.last_name, u.deactivated_at AS user_off, u.deleted_at AS user_deleted
    FROM ledger_accounts a
    LEFT JOIN companies c ON c.id = a.owner_id
    LEFT JOIN users u ON u.id = a.owner_id
    WHERE a.kind = 'wallet' AND a.owner_id IN (p_from, p_to)
    ORDER BY a.id
    FOR UPDATE OF a
  LOOP
    IF r.owner_id = p_from THEN
      src_id := r.id; src_balance := r.balance; src_negative := r.allow_negative;
      src_name := coalesce(r.company_name, r.first_name || ' ' || r.last_name);
    ELSE
      dst_id := r.id; dst_balance := r.balance;
      IF r.company_name IS NOT NULL THEN
        dst_name := r.company_name; dst_active := r.company_off IS NULL;
      ELSIF r.role = 'Individual' THEN
        dst_name := r.first_name || ' ' || r.last_name; dst_active := r.user_off IS NULL AND r.user_deleted IS NULL;
      END IF;
    END IF;
  END LOOP;
  IF src_id IS NULL THEN RAISE EXCEPTION 'cw:source_not_found'; END IF;
  IF dst_id IS NULL OR dst_name IS NULL THEN RAISE EXCEPTION 'cw:target_not_found'; END IF;
  IF NOT dst_active THEN RAISE EXCEPTION 'cw:target_inactive'; END IF;
  IF src_balance - p_amount < 0 AND NOT src_negative THEN RAISE EXCEPTION 'cw:insufficient_funds'; END IF;

  INSERT INTO ledger_transfers (id, kind, reference, description, meta, created_by, created_at)
  VALUES (p_transfer_id, 'transfer', p_reference, p_description, p_meta, p_created_by, p_at);
  INSERT INTO ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at) VALUES
    (p_entry_from, p_transfer_id, src_id, -p_amount, src_balance, src_balance - p_amount, p_at),
    (p_entry_to, p_transfer_id, dst_id, p_amount, dst_balance, dst_balance + p_amount, p_at);
  UPDATE ledger_accounts SET balance = CASE WHEN id = src_id THEN src_balance - p_amount ELSE dst_balance + p_amount END
  WHERE id IN (src_id, dst_id);

  -- The receiving wallet's people hear of it in this same transaction (no extra round trip). The
  -- same audience and mail rule as notify() in server/modules/notifications/service.ts: the
  -- Individual, or every live user of the company; mail unless they turned transfer mail off.
  INSERT INTO notifications (id, user_id, type, title, body, link, event_key, mail_state, mail_next_attempt_at, created_at)
  SELECT gen_random_uuid(), u.id, 'transfer_received', 'You received USDT ' || cw_money(p_amount),
    coalesce(src_name, 'Another wallet') || ' sent USDT ' || cw_money(p_amount) || ' to your master wallet.'
      || CASE WHEN coalesce(p_meta->>'reference', '') <> '' THEN chr(10) || 'Reference: ' || (p_meta->>'reference') ELSE '' END,
    '/portal/wallet-transfers', 'transfer:' || p_transfer_id::text,
    CASE WHEN coalesce(s.mail, true) THEN 'pending' END, CASE WHEN coalesce(s.mail, true) THEN p_at END, p_at
  FROM users u
  LEFT JOIN notification_settings s ON s.user_id = u.id AND s.type = 'transfer_received'
  WHERE ((u.id = p_to AND u.company_id IS NULL) OR u.company_id = p_to)
    AND u.deleted_at IS NULL AND u.deactivated_at IS NULL AND u.password_hash IS NOT NULL
  ON CONFLICT (user_id, event_key) DO NOTHING;

  body := replace(replace(replace(p_answer,
    '"__cw_to_name__"', to_json(dst_name)::text),
    '"__cw_balance_before__"', to_json(cw_money(src_balance))::text),
    '"__cw_balance_after__"', to_json(cw_money(src_balance - p_amount))::text);
  IF p_key IS NOT NULL THEN
    UPDATE idempotency_keys SET state = 'done', response_status = 200, response_body = body,
      response_content_type = 'application/json; charset=utf-8', completed_at = p_at
    WHERE principal = p_principal AND key = p_key;
  END IF;
  RETURN QUERY SELECT 'ok'::text, dst_name, src_balance, src_balance - p_amount;
END;
$$;
