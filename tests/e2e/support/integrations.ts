import { type APIRequestContext, type Browser, type Page, expect } from '@playwright/test';
import { isPhone } from './flows';

/** Set-up of the API Settings journey (tests/e2e/api-settings.spec.ts), done through the API. */

const hex64 = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');

export async function otherBrowser(browser: Browser, page: Page) {
  const phone = isPhone(page);
  const context = await browser.newContext({
    viewport: page.viewportSize()!,
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: phone ? 2 : 1,
  });
  return { context, page: await context.newPage() };
}

export const sessionOf = (page: Page) =>
  page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('cw.auth')!);
    return {
      token: atob(s.token) as string,
      companyId: (s.company?.id ?? null) as string | null,
      wallet: s.user.wallet_id as string,
    };
  });
const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() });

/** Phone: a company of its own, mail-verified, with its KYB approved by staff, all through the API. */
export async function approveKyb(request: APIRequestContext, customer: Page, staffToken: string) {
  const { token, companyId } = await sessionOf(customer);
  const kyb = await request.post(`/api/v1/company/kyb/${companyId}`, {
    headers: headers(token),
    multipart: {
      registered_name: 'Cape Coast Ventures Ltd',
      company_profile: 'Logistics software for West African shippers.',
      tax_number: `C00${Date.now() % 1_000_000}`,
      incorporation_date: '2019-03-14',
      operation_countries: 'Ghana',
      shareholder_passport: {
        name: 'passport.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n% e2e passport\n%%EOF\n'),
      },
    },
  });
  expect(kyb.status(), await kyb.text()).toBe(201);
  const list = await request.get('/api/v1/verification/get-companies?state=pending&per_page=100', {
    headers: { authorization: `Bearer ${staffToken}` },
  });
  const row = (await list.json()).data.find((r: { account_id: string }) => r.account_id === companyId);
  const decide = await request.post('/api/v1/verification/decide', {
    headers: headers(staffToken),
    data: { verification_id: row.id, decision: 'approve' },
  });
  expect(decide.status(), await decide.text()).toBe(200);
}

/** Phone: a card event for the webhook log, as it happens for real: a funded wallet, a card, a freeze. */
export async function freezeACard(request: APIRequestContext, customer: Page, staffToken: string) {
  const { token, wallet } = await sessionOf(customer);
  const top = await request.post('/api/v1/wallet/topup-balance', {
    headers: headers(token),
    data: { wallet_id: wallet, amount: '60', method: 'tron' },
  });
  expect(top.status(), await top.text()).toBe(201);
  const { reference } = (await top.json()).data;
  const conf = await request.post('/api/v1/wallet/topup-confirm', {
    headers: headers(token),
    data: { reference, transaction_hash: hex64() },
  });
  expect(conf.status(), await conf.text()).toBe(200);
  const list = await request.get(`/api/v1/reports/view-wallet-topups?wallet=${wallet}&per_page=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const row = (await list.json()).data.find((r: { reference: string }) => r.reference === reference);
  const approve = await request.post('/api/v1/wallet/approve-topup', {
    headers: headers(staffToken),
    data: { topup_id: row.id, action: 'approve', note: 'Checked on a Tron explorer: paid.' },
  });
  expect(approve.status(), await approve.text()).toBe(200);
  const card = await request.post('/api/v1/cards', {
    headers: headers(token),
    data: {
      first_name: 'Kwesi',
      last_name: 'Appiah',
      nickname: 'Webhooks',
      type: 'premium',
      purpose: 'general',
      card_amount: '10',
    },
  });
  expect(card.status(), await card.text()).toBe(201);
  const cardId = (await card.json()).data.card.id as string;
  const freeze = await request.post(`/api/v1/cards/change-status/${cardId}`, {
    headers: headers(token),
    data: { status: 'deactivate' },
  });
  expect(freeze.status(), await freeze.text()).toBe(202);
  return cardId;
}

/** Delivery states the e2e server cannot reach (its dispatcher is off): answered 200, 500s and a timeout. */
export function deliveriesFixture() {
  const at = (min: number) => new Date(Date.now() + min * 60_000).toISOString();
  const payload = (type: string) => ({
    type,
    timestamp: at(-30),
    data: { card_id: '7d1c2a9e-0000-4000-8000-00000000c0de', nickname: 'Travel', state: 'Deactivated' },
  });
  const ev = (id: string, type: string, state: string, deliveries: unknown[], next: string | null) => ({
    id,
    message_id: `msg_${id}`,
    type,
    state,
    attempts: deliveries.length,
    next_attempt_at: next,
    delivered_at: state === 'delivered' ? at(-29) : null,
    created_at: at(-30),
    payload: payload(type),
    deliveries,
  });
  const a = (
    attempt: number,
    status_code: number | null,
    error: string | null,
    next_retry_at: string | null,
    min: number,
  ) => ({ attempt, status_code, error, duration_ms: status_code ? 182 : 10_000, next_retry_at, created_at: at(min) });
  const data = [
    ev(
      'fx1',
      'card.authorization.declined',
      'pending',
      [a(1, 500, null, at(-24), -29), a(2, null, 'Timed out after 10 s', at(4), -24)],
      at(4),
    ),
    ev('fx2', 'card.frozen', 'delivered', [a(1, 200, null, null, -29)], null),
    ev('fx3', 'card.authorization.approved', 'failed', [a(1, 410, null, null, -29)], null),
  ];
  return {
    data,
    links: { first: null, last: null, prev: null, next: null },
    from: 1,
    to: 3,
    total: 3,
    current_page: 1,
    last_page: 1,
    per_page: 25,
  };
}
