-- Transfers that reach one instance together are posted in one transaction (one commit, one WAL flush),
-- each as cw_transfer would post it alone, in its own subtransaction: a refusal (short of funds, an unknown
-- wallet) undoes that transfer only. Between two hot wallets one commit per transfer under their row locks
-- was the bound; a batch holds the locks once for all of them. Answers one row per transfer, in order: the
-- outcome of cw_transfer, or 'error' with the message it raised.
CREATE FUNCTION cw_transfer_batch(p jsonb)
RETURNS TABLE (i int, outcome text, to_name text, balance_before bigint, balance_after bigint, error text)
LANGUAGE plpgsql AS $$
DECLARE
  t jsonb;
  n int := 0;
  r record;
BEGIN
  -- Every wallet of the batch locked first, in id order (as cw_transfer locks its two), so batches and
  -- single transfers on other instances never wait on each other in a cycle.
  PERFORM 1 FROM ledger_accounts a
  WHERE a.kind = 'wallet'
    AND a.owner_id IN (SELECT (x->>'from')::uuid FROM jsonb_array_elements(p) x
                       UNION SELECT (x->>'to')::uuid FROM jsonb_array_elements(p) x)
  ORDER BY a.id
  FOR UPDATE;
  FOR t IN SELECT x FROM jsonb_array_elements(p) x LOOP
    BEGIN
      SELECT * INTO r FROM cw_transfer(
        (t->>'from')::uuid, (t->>'to')::uuid, (t->>'amount')::bigint, (t->>'transfer_id')::uuid,
        (t->>'entry_from')::uuid, (t->>'entry_to')::uuid, t->>'reference', t->>'description', t->'meta',
        (t->>'created_by')::uuid, (t->>'at')::timestamptz, t->>'principal', t->>'key', t->>'request_hash',
        t->>'answer');
      i := n; outcome := r.outcome; to_name := r.to_name;
      balance_before := r.balance_before; balance_after := r.balance_after; error := NULL;
    EXCEPTION WHEN OTHERS THEN
      i := n; outcome := 'error'; to_name := NULL; balance_before := NULL; balance_after := NULL; error := SQLERRM;
    END;
    RETURN NEXT;
    n := n + 1;
  END LOOP;
END $$;
