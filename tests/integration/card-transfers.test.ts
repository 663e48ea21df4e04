import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_WALLET_TX_TYPES } from '@shared/contract';
import { centsOf } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { creationFee, fundingFee, newCard, rows, withdrawalFee } from './support/cards';
import { fundWallet } from './support/money';
import { expectAgreeing } from './support/settled';

/**
 * 'Wallet Transactions for Cards' (back-office §2.15, /admin/card-transfers): the card movements
 * of master wallets, GET /reports/view-wallet-transactions?card_only=true with the type and date
 * filters and the totals of the whole filtered set.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PATH = '/reports/view-wallet-transactions';
const get = (who: Actor | null, q: string) => t.api('GET', `${PATH}?${q}`, who ? { token: who.token } : {});
const today = () => t.clock.now().toISOString().slice(0, 10);

interface Row {
  type: string;
  amount: string;
  fees: string;
  card_number: string | null;
  trans_ref: string;
  fees_meta: Record<string, unknown> | null;
}

/** An Individual whose wallet holds a deposit, two card creations, a top-up, a withdrawal and a deletion refund. */
async function busyIndividual() {
  const a = await newIndividual(t);
  await fundWallet(t, a.id, 100_000);
  const visa = (await newCard(t, a, { purpose: 'media', type: 'premium', card_amount: '50.00' })).card;
  const master = (await newCard(t, a, { purpose: 'general', type: 'premium', card_amount: '20.00' })).card;
  expect(
    (await t.api('POST', '/cards/add-funds', { token: a.token, body: { card: visa.id, amount: '10.00' } })).status,
  ).toBe(200);
  expect(
    (await t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card: visa.id, amount: '5.00' } })).status,
  ).toBe(200);
  expect((await t.api('DELETE', `/cards/${master.id}`, { token: a.token })).status).toBe(202);
  return { a, visa, master };
}

describe('GET /reports/view-wallet-transactions?card_only=true', () => {
  it('lists only the card movements of the wallet, with their fees, breakdowns and the totals', async () => {
    const staff = await newStaff(t);
    const { a, visa, master } = await busyIndividual();
    const res = await get(staff, `individual_id=${a.id}&card_only=true`);
    expect(res.status).toBe(200);
    const rows = res.body.data as Row[];
    expect(rows.map((r) => r.type).sort()).toEqual(['issuance', 'issuance', 'refund', 'topup', 'withdraw']);
    expect(res.body.total).toBe(5);
    // the deposit is a wallet movement but not a card's
    const all = await get(staff, `individual_id=${a.id}`);
    expect((all.body.data as Row[]).map((r) => r.type)).toContain('deposit');

    const fees =
      creationFee('media', 5_000) +
      creationFee('general', 2_000) +
      fundingFee('media', 1_000) +
      withdrawalFee('media', 500);
    expect(centsOf(res.body.totals.fees)).toBe(fees);
    expect(centsOf(res.body.totals.amount)).toBe(rows.reduce((s, r) => s + centsOf(r.amount), 0));
    expect(rows.reduce((s, r) => s + centsOf(r.fees), 0)).toBe(fees);

    const issuance = rows.find((r) => r.type === 'issuance' && r.card_number === visa.masked_number)!;
    expect(issuance.fees_meta).toMatchObject({
      for: 'card-issuance-media',
      'sub-total': '50.00',
      total: issuance.fees,
      old_balance: expect.any(String),
      new_balance: expect.any(String),
    });
    expect(Object.keys(issuance.fees_meta!.fees as object).sort()).toEqual([
      'card-issuance-media',
      'card-load-media',
      'flat-fee',
    ]);
    const topup = rows.find((r) => r.type === 'topup')!;
    expect(topup).toMatchObject({
      card_number: visa.masked_number,
      fees_meta: expect.objectContaining({ for: 'card-load-media', 'sub-total': '10.00' }),
    });
    expect(rows.find((r) => r.type === 'refund')!.card_number).toBe(master.masked_number);
    // never a full number in the staff view (ids left out: a UUID's last group may be 12 digits by chance)
    const body = JSON.stringify(res.body).replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      '<id>',
    );
    expect(body).not.toMatch(/\d{12,19}/);
  });

  it("pages every wallet's card movements newest first, as the ledger orders them, on any page and for each type", async () => {
    const staff = await newStaff(t);
    await busyIndividual();
    await busyIndividual();
    const ids = async (q: string) => {
      const res = await get(staff, q);
      expect(res.status, q).toBe(200);
      return (res.body.data as { id: string }[]).map((r) => r.id);
    };
    const newest = async (kinds: readonly string[], n: number) =>
      (
        await rows(
          t,
          sql`select entry_id as id from wallet_entries where kind in (${sql.join(
            kinds.map((k) => sql`${k}`),
            sql`, `,
          )}) order by created_at desc, entry_id desc limit ${n}`,
        )
      ).map((r) => String(r.id));
    // three pages of four, read one after the other, are the twelve newest
    await expectAgreeing(
      async () => [
        ...(await ids('card_only=true&per_page=4&page=1')),
        ...(await ids('card_only=true&per_page=4&page=2')),
        ...(await ids('card_only=true&per_page=4&page=3')),
      ],
      () => newest(CARD_WALLET_TX_TYPES, 12),
    );
    await expectAgreeing(
      () => ids('card_only=true&type=issuance&per_page=5'),
      () => newest(['issuance'], 5),
    );
    expect(await ids('card_only=true&type=deposit')).toEqual([]);
  });

  it('filters by type and by date, for staff and for the owner', async () => {
    const staff = await newStaff(t);
    const { a } = await busyIndividual();
    for (const who of [staff, a]) {
      for (const [type, n] of [
        ['issuance', 2],
        ['topup', 1],
        ['withdraw', 1],
      ] as const) {
        const res = await get(who, `wallet=${a.id}&card_only=true&type=${type}`);
        expect(res.status).toBe(200);
        expect((res.body.data as Row[]).map((r) => r.type)).toEqual(Array(n).fill(type));
      }
      // a type that is not a card's leaves nothing
      expect((await get(who, `wallet=${a.id}&card_only=true&type=deposit`)).body.data).toEqual([]);
      expect(
        (await get(who, `wallet=${a.id}&card_only=true&start_date=${today()}&end_date=${today()}`)).body.total,
      ).toBe(5);
      const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
      const none = await get(who, `wallet=${a.id}&card_only=true&start_date=${tomorrow}`);
      expect(none.body).toMatchObject({ data: [], total: 0, totals: { amount: '0.00', fees: '0.00' } });
    }
  });

  it('narrows a company to its wallet; its users read it, nobody else does', async () => {
    const staff = await newStaff(t);
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    await fundWallet(t, company.companyId!, 50_000);
    const card = (await newCard(t, member, { purpose: 'general', type: 'premium', card_amount: '10.00' })).card;
    for (const who of [staff, company, member]) {
      const res = await get(who, `company_id=${company.companyId}&card_only=true`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([expect.objectContaining({ type: 'issuance', card_number: card.masked_number })]);
    }
    // another customer: another's wallet is not found, whichever parameter names it
    const other = await newIndividual(t);
    for (const q of [
      `company_id=${company.companyId}`,
      `wallet=${company.companyId}`,
      `individual_id=${company.companyId}`,
    ]) {
      const res = await get(other, `${q}&card_only=true`);
      expect(res.status, q).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(card.masked_number);
    }
    // a customer without a wallet named sees only their own (nothing here)
    expect((await get(other, 'card_only=true')).body).toMatchObject({ data: [], total: 0 });
    // staff: a wallet that does not exist is 404
    expect((await get(staff, `company_id=00000000-0000-4000-8000-00000000dead&card_only=true`)).status).toBe(404);
    expect((await get(null, 'card_only=true')).status).toBe(401);
  });

  it.each([
    ['card_only=yes', 'card_only', 'card_only must be true or false'],
    ['type=cashback', 'type', 'Unknown transaction type'],
    ['wallet=abc', 'wallet', 'Enter a valid wallet id'],
    ['company_id=abc', 'company_id', 'Enter a valid company id'],
    ['individual_id=123', 'individual_id', 'Enter a valid individual id'],
    ['start_date=2026-02-30', 'start_date', 'Start date must be a date such as 2026-01-31'],
    ['end_date=tomorrow', 'end_date', 'End date must be a date such as 2026-01-31'],
    ['start_date=2026-02-01&end_date=2026-01-31', 'end_date', 'End date must be on or after the start date'],
    ['page=0', 'page', 'page must be a whole number from 1'],
    ['per_page=101', 'per_page', 'per_page must be a whole number from 1 to 100'],
  ])('refuses %s with 422 and a message on that field', async (q, field, message) => {
    const staff = await newStaff(t);
    const res = await get(staff, `card_only=true&${q}`.replace('card_only=true&card_only=yes', 'card_only=yes'));
    expect(res.status).toBe(422);
    expect(res.body.error[field]).toEqual([message]);
    expect(typeof res.body.message).toBe('string');
  });
});
