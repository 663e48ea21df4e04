import { type APIRequestContext, expect } from '@playwright/test';
import { verifiedIndividual } from './accounts';
import { hex64 } from './cards';
import { freshCode, rememberSecret } from './totp';

export interface CustomerWithCards {
  id: string;
  name: string;
  email: string;
  password: string;
  visa: { id: string; masked_number: string; nickname: string };
  master: { id: string; masked_number: string; nickname: string };
}

/**
 * A customer through the API for the back-office card journeys: registered, 2FA set up (its key
 * remembered, so the customer can log in through the UI too), wallet funded by a staff-approved
 * top-up, a premium Visa 'Admin Visa' (50.00 + 10.00) and a premium Mastercard 'Admin Master' (20.00).
 */
export async function customerWithCards(
  request: APIRequestContext,
  staffToken: string,
  last: string,
): Promise<CustomerWithCards> {
  const { email, password } = await verifiedIndividual(request, 'Yaw', last);
  const login = await request.post('/api/v1/account/login', { data: { email, password } });
  expect(login.status()).toBe(200);
  const challenge = (await login.json()).data as { token: string; secret: string };
  rememberSecret(email, challenge.secret);
  const confirm = await request.post('/api/v1/account/auth-confirm', {
    data: { token: challenge.token, code: await freshCode(email) },
  });
  expect(confirm.status(), await confirm.text()).toBe(200);
  const { access_token, user } = (await confirm.json()).data as {
    access_token: string;
    user: { id: string; wallet_id: string };
  };
  const auth = { authorization: `Bearer ${access_token}` };
  const top = await request.post('/api/v1/wallet/topup-balance', {
    headers: auth,
    data: { wallet_id: user.wallet_id, amount: '500.00', method: 'tron' },
  });
  expect(top.status()).toBe(201);
  const { reference } = (await top.json()).data;
  expect(
    (
      await request.post('/api/v1/wallet/topup-confirm', {
        headers: auth,
        data: { reference, transaction_hash: hex64() },
      })
    ).status(),
  ).toBe(200);
  const list = await request.get(`/api/v1/reports/view-wallet-topups?wallet=${user.wallet_id}`, { headers: auth });
  const topup = (await list.json()).data.find((r: { reference: string }) => r.reference === reference);
  const approve = await request.post('/api/v1/wallet/approve-topup', {
    headers: { authorization: `Bearer ${staffToken}` },
    data: { topup_id: topup.id, action: 'approve', note: 'Checked on a Tron explorer: paid.' },
  });
  expect(approve.status(), await approve.text()).toBe(200);
  const card = async (nickname: string, purpose: 'media' | 'general', amount: string) => {
    const res = await request.post('/api/v1/cards', {
      headers: auth,
      data: {
        first_name: 'Yaw',
        last_name: last,
        nickname,
        type: 'premium',
        purpose,
        card_amount: amount,
        ...(purpose === 'media' ? { spending_limit: '1000.00', spending_control: 'month' } : {}),
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).data.card as { id: string; masked_number: string; nickname: string };
  };
  const visa = await card('Admin Visa', 'media', '50.00');
  const master = await card('Admin Master', 'general', '20.00');
  expect(
    (
      await request.post('/api/v1/cards/add-funds', { headers: auth, data: { card: visa.id, amount: '10.00' } })
    ).status(),
  ).toBe(200);
  return { id: user.id, name: `Yaw ${last}`, email, password, visa, master };
}
