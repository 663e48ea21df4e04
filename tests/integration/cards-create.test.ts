import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, sandboxCards } from '../../server/db/schema';
import { isLuhnValid } from '../../server/issuer/luhn';
import { unseal } from '../../server/lib/crypto';
import { scheduleFor } from '../../server/modules/fees/service';
import { FEES_FOR, computeFees } from '@shared/fees';
import { centsOf, formatMoney } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { charge, createCard, creationFee, issuerBalance, newCard, rows, walletCents } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const reveal = async (owner: Actor, cardId: string) => {
  const res = await t.api('GET', `/cards/${cardId}`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body.data as { card: Record<string, any>; details: Record<string, any>; billing: Record<string, string> };
};

describe('POST /cards', () => {
  it('creates a premium Visa: 201 with card, details and billing; the wallet pays 100.00 + 7.00 in fees', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 100_000);
    const res = await createCard(t, a, {
      nickname: 'Travel',
      card_amount: '100.00',
      spending_limit: '50.00',
      spending_control: 'day',
    });
    expect(res.status).toBe(201);
    const { card, details, billing } = res.body.data;
    expect(card).toMatchObject({
      wallet_id: a.id,
      cardholder: 'Abena Asante',
      nickname: 'Travel',
      purpose: 'media',
      brand: 'Visa',
      type: 'premium',
      balance: '100.00',
      available: '100.00',
      ledger: '100.00',
      spending_limit: '50.00',
      spending_control: 'day',
      additional_spending_limit: '0.00',
      state: 'Active',
      is_deleted: false,
      flagged: false,
      suspended: false,
      masked_number: `**** **** **** ${card.last4}`,
    });
    expect(details.card_exp_year).toBe(t.clock.now().getUTCFullYear() + 3);
    expect(details.card_exp_month).toBe(t.clock.now().getUTCMonth() + 1);
    for (const k of ['AdrLine1', 'AdrLine2', 'City', 'State', 'Country', 'ZipCode']) expect(billing[k]).toMatch(/\S/);
    expect(computeFees(await scheduleFor(t.ctx.db, null), FEES_FOR.cardCreation('media'), 10_000).total).toBe(700);
    expect(await walletCents(t, a)).toBe(100_000 - 10_700);
    expect(await issuerBalance(t, card.id)).toBe(10_000);

    // The wallet's history shows the issuance with its fees.
    const hist = await t.api('GET', `/reports/view-wallet-transactions?wallet=${a.id}&type=issuance`, {
      token: a.token,
    });
    expect(hist.status).toBe(200);
    expect(hist.body.data).toHaveLength(1);
    expect(hist.body.data[0]).toMatchObject({
      type: 'issuance',
      direction: 'debit',
      amount: '107.00',
      fees: '7.00',
      card_number: card.masked_number,
      balance_before: '1000.00',
      balance_after: '893.00',
    });
    expect(hist.body.data[0].fees_meta).toMatchObject({
      fees: { 'card-issuance-media': '5.00', 'card-load-media': '1.50', 'flat-fee': '0.50' },
      'sub-total': '100.00',
      total: '7.00',
    });
  });

  it('issues 16-digit Luhn-valid numbers by brand (Visa 4…, Mastercard 5…), revealed with a 3-digit CVC to the owner only', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 100_000);
    for (const [purpose, brand, first] of [
      ['media', 'Visa', '4'],
      ['general', 'Mastercard', '5'],
      ['media', 'Visa', '4'],
      ['general', 'Mastercard', '5'],
    ] as const) {
      const made = await newCard(t, a, { purpose, type: 'basic', card_amount: '3.00' });
      const mine = await reveal(a, made.card.id);
      const pan = mine.card.card_number as string;
      expect(pan).toMatch(/^\d{16}$/);
      expect(isLuhnValid(pan)).toBe(true);
      expect(pan[0]).toBe(first);
      expect(mine.card.brand).toBe(brand);
      expect(mine.card.last4).toBe(pan.slice(-4));
      expect(mine.card.masked_number).toBe(`**** **** **** ${pan.slice(-4)}`);
      expect(mine.details.card_cvv).toMatch(/^\d{3}$/);
      // the same number every time it is revealed
      expect((await reveal(a, made.card.id)).card.card_number).toBe(pan);

      const theirs = await t.api('GET', `/cards/${made.card.id}`, { token: staff.token });
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.card.card_number).toBe(`**** **** **** ${pan.slice(-4)}`);
      expect(theirs.body.data.details).not.toHaveProperty('card_cvv');
      expect(JSON.stringify(theirs.body)).not.toContain(pan);
      // lists are masked for everyone
      for (const who of [a, staff]) {
        const list = await t.api('GET', `/cards/individual/${a.id}`, { token: who.token });
        expect(JSON.stringify(list.body)).not.toContain(pan);
      }
    }
  });

  it('keeps no number or CVC on the platform: no such column on cards, sealed at the issuer, the plain number nowhere in the database', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 10_000);
    // as the customer app does: one Idempotency-Key per creation
    const key = randomUUID();
    const body = { card_amount: '40.00', nickname: 'Online' };
    const res = await createCard(t, a, body, key);
    expect(res.status).toBe(201);
    const id = res.body.data.card.id;
    const { card, details } = await reveal(a, id);
    const pan = card.card_number as string;
    const cvc = details.card_cvv as string;
    // a retry with the key replays the same answer (and creates nothing more)
    const again = await createCard(t, a, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(res.body);
    expect(await walletCents(t, a)).toBe(10_000 - 4_000 - creationFee('media', 4_000));
    expect((await charge(t, staff, id, '5.00')).body.data.approved).toBe(true);

    const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, id));
    expect(Object.keys(row!).filter((k) => /pan|cvc|cvv|number/i.test(k) && k !== 'maskedNumber')).toEqual([]);
    expect(row!.maskedNumber).toBe(`**** **** **** ${pan.slice(-4)}`);
    expect(JSON.stringify(row)).not.toContain(pan);

    const [issued] = await t.ctx.db.select().from(sandboxCards).where(eq(sandboxCards.token, row!.issuerToken));
    expect(JSON.stringify(issued)).not.toContain(pan);
    expect(issued!.panSealed).not.toContain(pan.slice(0, 8));
    expect(issued!.cvcSealed).not.toBe(cvc);
    expect(unseal(issued!.panSealed, t.ctx.config.encryptionKey)).toBe(pan);
    expect(unseal(issued!.cvcSealed, t.ctx.config.encryptionKey)).toBe(cvc);

    // Every row of every table, as text: the full number appears in none.
    const tables = await rows(
      t,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const found: string[] = [];
    for (const { name } of tables) {
      const hit = await rows(
        t,
        sql`select count(*)::int as n from ${sql.identifier(String(name))} x where x::text like ${`%${pan}%`}`,
      );
      if (Number(hit[0]!.n) > 0) found.push(String(name));
    }
    expect(found, 'tables holding the plain card number').toEqual([]);
  });
});

describe('fees', () => {
  it('charges exactly what the shared fee function computes, for each purpose, type and amount', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 500_000);
    let expected = 500_000;
    for (const [purpose, type, amount] of [
      ['media', 'premium', '33.33'],
      ['general', 'basic', '3.00'],
      ['media', 'basic', '1234.56'],
      ['general', 'premium', '250.05'],
      ['media', 'premium', '100.00'],
    ] as const) {
      const cents = centsOf(amount);
      await newCard(t, a, { purpose, type, card_amount: amount });
      expected -= cents + creationFee(purpose, cents);
      expect(await walletCents(t, a), `${purpose} ${type} ${amount}`).toBe(expected);
    }
    // 33.33: 5.00 + 0.50 (1.5 % = 0.49995, half up) + 0.50
    expect(creationFee('media', 3333)).toBe(600);
    expect(creationFee('media', 10_000)).toBe(700);
  });

  it("applies a company's own fees (its overrides over the defaults), and only to that company", async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const [own, other] = [await newCompany(t), await newCompany(t)];
    const defaults = (await t.api('GET', '/fees?for=default&per_page=100', { token: sa.token })).body.data as {
      id: string;
      name: string;
    }[];
    const fee = (name: string) => defaults.find((f) => f.name === name)!.id;
    for (const [name, body] of [
      ['card-issuance-general', { value: '1.25' }],
      ['card-load-general', { value: '2.00' }],
      ['flat-fee', { value: '0.50', status: 0 }],
    ] as const) {
      const r = await t.api('PUT', `/fees/${fee(name)}`, {
        token: sa.token,
        body: { ...body, for: 'company', for_id: own.companyId },
      });
      expect(r.status).toBe(200);
    }
    for (const c of [own, other]) await fundWallet(t, c.companyId!, 100_000);
    await newCard(t, own, { purpose: 'general', card_amount: '200.00' });
    await newCard(t, other, { purpose: 'general', card_amount: '200.00' });
    // own: 200 + 1.25 + 4.00 (2 %) and no flat fee; other: 200 + 5.00 + 3.00 + 0.50
    expect(await walletCents(t, own)).toBe(100_000 - 20_525);
    expect(await walletCents(t, other)).toBe(100_000 - 20_850);
    const schedule = await scheduleFor(t.ctx.db, own.companyId);
    expect(computeFees(schedule, FEES_FOR.cardCreation('general'), 20_000).total).toBe(525);
  });
});

describe('who creates cards', () => {
  it('lets a Company-User create cards on the company wallet, which pays for them', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin, 'user');
    const staff = await newStaff(t);
    await fundWallet(t, admin.companyId!, 20_000);
    const made = await newCard(t, member, {
      purpose: 'general',
      type: 'premium',
      card_amount: '60.00',
      nickname: 'Fleet fuel',
    });
    expect(made.card.wallet_id).toBe(admin.companyId);
    expect(await walletCents(t, admin)).toBe(20_000 - 6_000 - creationFee('general', 6_000));
    expect(formatMoney(await walletCents(t, member))).toBe(formatMoney(await walletCents(t, admin)));
    const companyCards = await t.api('GET', `/cards/company/${admin.companyId}`, { token: admin.token });
    expect(companyCards.body.data.map((c: { id: string }) => c.id)).toEqual([made.card.id]);
    const asStaff = await t.api('GET', `/cards?company_id=${admin.companyId}`, { token: staff.token });
    expect(asStaff.body.data[0]).toMatchObject({
      id: made.card.id,
      owner_type: 'Company',
      owner_name: 'Volta Trading Ltd',
      created_by: 'Esi Badu',
    });
    // the admin, too, sees the full number of a company card
    expect((await reveal(admin, made.card.id)).card.card_number).toMatch(/^5\d{15}$/);
  });
});
