import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { charge, newCard } from './support/cards';
import { fundWallet } from './support/money';

/** A customer's own card list and a card's transactions as CSV: the same rows and filters as the screens, owner only. */

let t: TestApp;
let owner: Actor;
let stranger: Actor;
let staff: Actor;
let visaId: string;
let mastercardNickname: string;

const csvGet = (path: string, token?: string) =>
  fetch(`${t.url}/api/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** Rows of cells, without the BOM; quoted cells may hold commas and doubled quotes. */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.replace(/^\uFEFF/, '').split('\r\n')) {
    if (!line) continue;
    const cells: string[] = [];
    const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    for (let m = re.exec(line); m && m[0] !== ''; m = re.exec(line)) {
      cells.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!);
      if (m[2] === '') break;
    }
    rows.push(cells);
  }
  return rows;
}

async function csvRows(path: string, token: string) {
  const res = await csvGet(path, token);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  const [header, ...rows] = parse(await res.text());
  return { header: header!, rows, col: (name: string) => header!.indexOf(name) };
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger, staff] = await Promise.all([newIndividual(t), newIndividual(t), newStaff(t)]);
  await fundWallet(t, owner.id, 50_000);
  const visa = await newCard(t, owner, { purpose: 'media', card_amount: '40.00' });
  const mc = await newCard(t, owner, { purpose: 'general', card_amount: '20.00' });
  visaId = visa.card.id;
  mastercardNickname = mc.card.nickname;
  expect((await charge(t, staff, visaId, '12.34', 'Shoprite, Accra')).status).toBe(201);
});
afterAll(() => t.close());

describe('GET /cards/individual/{wallet}?format=csv', () => {
  it('answers every live card of the owner, narrowed by the list filters', async () => {
    const wallet = owner.session.user.wallet_id!;
    const all = await csvRows(`/cards/individual/${wallet}?format=csv`, owner.token);
    expect(all.header.slice(0, 3)).toEqual(['Card Name', 'Card Nickname', 'Owner']);
    expect(all.rows).toHaveLength(2);
    const json = await t.api('GET', `/cards/individual/${wallet}`, { token: owner.token });
    expect(all.rows.map((r) => r[all.col('Card Number')]).sort()).toEqual(
      json.body.data.map((c: { masked_number: string }) => c.masked_number).sort(),
    );
    // The Visa's 40.00 less the 12.34 payment held on it.
    expect(all.rows.map((r) => r[all.col('Balance (USD)')]).sort()).toEqual(['20.00', '27.66']);

    const general = await csvRows(`/cards/individual/${wallet}?format=csv&purpose=general`, owner.token);
    expect(general.rows.map((r) => r[general.col('Card Nickname')])).toEqual([mastercardNickname]);
  });

  it("is the owner's only: another customer gets 404 and no rows, no token 401", async () => {
    const wallet = owner.session.user.wallet_id!;
    const res = await csvGet(`/cards/individual/${wallet}?format=csv`, stranger.token);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('Card Number');
    expect((await csvGet(`/cards/individual/${wallet}?format=csv`)).status).toBe(401);
  });
});

describe('GET /reports/view-cards-transactions?format=csv', () => {
  it("answers the card's movements with exact amounts and ISO dates", async () => {
    const tx = await csvRows(`/reports/view-cards-transactions?card=${visaId}&format=csv`, owner.token);
    const payment = tx.rows.find((r) => r[tx.col('Merchant')] === 'Shoprite, Accra');
    expect(payment?.[tx.col('Amount')]).toBe('12.34');
    expect(payment?.[tx.col('Date Created')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    const json = await t.api('GET', `/reports/view-cards-transactions?card=${visaId}&per_page=100`, {
      token: owner.token,
    });
    expect(tx.rows).toHaveLength(json.body.total);
  });

  it("names each payment's merchant category and a decline's stable code", async () => {
    // the card's own block: program controls are shared by every test on the database
    const blocked = await t.api('PUT', `/cards/${visaId}/controls`, {
      token: owner.token,
      body: { blocked_categories: ['gambling'] },
    });
    expect(blocked.status).toBe(200);
    const declined = await t.api('POST', '/sandbox/authorizations', {
      token: staff.token,
      body: { card_id: visaId, amount: '5.00', merchant: 'Lucky Bet', mcc: '7995', country: 'GH', currency: 'USD' },
    });
    expect(declined.body.data.decline_code).toMatch(/^(merchant_category_blocked|program_blocked)$/);
    const tx = await csvRows(`/reports/view-cards-transactions?card=${visaId}&format=csv`, owner.token);
    const payment = tx.rows.find((r) => r[tx.col('Merchant')] === 'Shoprite, Accra');
    expect(payment?.[tx.col('MCC')]).toBe('5999');
    expect(payment?.[tx.col('Category')]).toBe('Shops and retail');
    expect(payment?.[tx.col('Decline Code')]).toBe('');
    const bet = tx.rows.find((r) => r[tx.col('Merchant')] === 'Lucky Bet');
    expect(bet?.[tx.col('Category')]).toBe('Gambling and betting');
    expect(bet?.[tx.col('Decline Code')]).toBe(declined.body.data.decline_code);
    expect(bet?.[tx.col('Decline Reason')]).not.toBe('');
  });

  it("refuses another customer's card", async () => {
    const res = await csvGet(`/reports/view-cards-transactions?card=${visaId}&format=csv`, stranger.token);
    expect(res.status).toBe(404);
  });
});
