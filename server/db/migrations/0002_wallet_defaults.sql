-- Ledger rows are history: they are never changed or removed; corrections are new transfers.
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ledger % rows are immutable', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_immutable BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
-- Platform accounts: money outside the platform may be "negative" from our side.
INSERT INTO ledger_accounts (id, kind, owner_id, currency, allow_negative) VALUES
  ('00000000-0000-4000-a000-000000000001', 'fee_income', NULL, 'USDT', false),
  ('00000000-0000-4000-a000-000000000002', 'tron_deposits', NULL, 'USDT', true),
  ('00000000-0000-4000-a000-000000000003', 'momo_deposits', NULL, 'USDT', true),
  ('00000000-0000-4000-a000-000000000004', 'card_issuer', NULL, 'USD', true),
  ('00000000-0000-4000-a000-000000000005', 'forfeited', NULL, 'USD', false)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Every existing customer gets a master wallet.
INSERT INTO ledger_accounts (id, kind, owner_id, currency)
  SELECT gen_random_uuid(), 'wallet', u.id, 'USDT' FROM users u WHERE u.role = 'Individual'
  UNION ALL
  SELECT gen_random_uuid(), 'wallet', c.id, 'USDT' FROM companies c
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The default fee schedule (values in hundredths: 150 = 1.50 % or 1.50 USD).
INSERT INTO fees (id, name, type, value, status, "for") VALUES
  (gen_random_uuid(), 'card-issuance-media', 'fixed', 500, 'Active', 'default'),
  (gen_random_uuid(), 'card-issuance-general', 'fixed', 500, 'Active', 'default'),
  (gen_random_uuid(), 'card-issuance-tokencard', 'fixed', 300, 'Active', 'default'),
  (gen_random_uuid(), 'card-load-media', 'percentage', 150, 'Active', 'default'),
  (gen_random_uuid(), 'card-load-general', 'percentage', 150, 'Active', 'default'),
  (gen_random_uuid(), 'card-load-tokencard', 'percentage', 100, 'Active', 'default'),
  (gen_random_uuid(), 'card-withdraw-media', 'percentage', 100, 'Active', 'default'),
  (gen_random_uuid(), 'card-withdraw-general', 'percentage', 100, 'Active', 'default'),
  (gen_random_uuid(), 'card-withdraw-tokencard', 'percentage', 100, 'Active', 'default'),
  (gen_random_uuid(), 'flat-fee', 'fixed', 50, 'Active', 'default'),
  (gen_random_uuid(), 'wallet-topup-tron', 'percentage', 50, 'Active', 'default'),
  (gen_random_uuid(), 'card-maintenance', 'fixed', 200, 'Active', 'default'),
  (gen_random_uuid(), 'api-monthly', 'fixed', 5000, 'Active', 'default')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO momo_settings (id, momo_name, momo_number, network, rate, flat_fee, alert_emails, entity_users)
VALUES (1, 'Cardwallet Ltd', '+233240000000', 'MTN Mobile Money', '15.50', 500, '[]', '[]')
ON CONFLICT DO NOTHING;
