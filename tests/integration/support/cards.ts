import { eq, sql } from 'drizzle-orm';
import type { ApiCardDetail } from '@shared/contract';
import { type FeeRule, FEES_FOR, computeFees } from '@shared/fees';
import { centsOf } from '@shared/money';
import { cards, companies, users } from '../../../server/db/schema';
import { cardAccounts } from '../../../server/modules/cards/accounts';
import { type Actor, logIn } from './actors';
import type { TestApp } from './app';
import { balanceOf, walletOf } from './wallet';

/** The default schedule as migration 0002 seeds it (hundredths): an independent copy for expectations. */
export const DEFAULT_CARD_FEES: FeeRule[] = [
  { name: 'card-issuance-media', type: 'fixed', value: 500, status: 'Active' },
  { name: 'card-issuance-general', type: 'fixed', value: 500, status: 'Active' },
  { name: 'card-issuance-tokencard', type: 'fixed', value: 300, status: 'Active' },
  { name: 'card-load-media', type: 'percentage', value: 150, status: 'Active' },
  { name: 'card-load-general', type: 'percentage', value: 150, status: 'Active' },
  { name: 'card-load-tokencard', type: 'percentage', value: 100, status: 'Active' },
  { name: 'card-withdraw-media', type: 'percentage', value: 100, status: 'Active' },
  { name: 'card-withdraw-general', type: 'percentage', value: 100, status: 'Active' },
  { name: 'card-withdraw-tokencard', type: 'percentage', value: 100, status: 'Active' },
  { name: 'flat-fee', type: 'fixed', value: 50, status: 'Active' },
  { name: 'card-maintenance', type: 'fixed', value: 200, status: 'Active' },
];

type Purpose = 'media' | 'general';
export const creationFee = (p: Purpose, cents: number) =>
  computeFees(DEFAULT_CARD_FEES, FEES_FOR.cardCreation(p), cents).total;
export const fundingFee = (p: Purpose, cents: number) =>
  computeFees(DEFAULT_CARD_FEES, FEES_FOR.cardFunding(p), cents).total;
export const withdrawalFee = (p: Purpose, cents: number) =>
  computeFees(DEFAULT_CARD_FEES, FEES_FOR.cardWithdrawal(p), cents).total;

let seq = 0;

/** A valid creation body: a premium Visa of 50.00 with a lifetime limit, unless overridden. */
export const cardBody = (over: Record<string, unknown> = {}) => ({
  first_name: 'Abena',
  last_name: 'Asante',
  nickname: `Card ${Date.now().toString(36)}-${seq++}`,
  type: 'premium',
  purpose: 'media',
  card_amount: '50.00',
  spending_limit: '100000.00',
  spending_control: 'lifetime',
  ...over,
});

export const createCard = (t: TestApp, owner: Actor, over: Record<string, unknown> = {}, idempotencyKey?: string) =>
  t.api('POST', '/cards', { token: owner.token, body: cardBody(over), idempotencyKey });

/** Creates a card and answers its detail (the owner's view, with number and CVC). */
export async function newCard(t: TestApp, owner: Actor, over: Record<string, unknown> = {}): Promise<ApiCardDetail> {
  const res = await createCard(t, owner, over);
  if (res.status !== 201) throw new Error(`create card ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Marks the actor's account (their own, or their company) Verified, as a KYC/KYB approval would. */
export async function verifyAccount(t: TestApp, a: Actor) {
  if (a.companyId) await t.ctx.db.update(companies).set({ state: 'Verified' }).where(eq(companies.id, a.companyId));
  else await t.ctx.db.update(users).set({ state: 'Verified' }).where(eq(users.id, a.id));
}

export const walletCents = async (t: TestApp, a: Actor) => centsOf(await balanceOf(t, a));

/** A merchant charges the card through the sandbox issuer (staff only). */
export const charge = (
  t: TestApp,
  staff: Actor,
  cardId: string,
  amount: string,
  merchant = 'Jumia Ghana',
  token = staff.token,
) =>
  t.api('POST', '/sandbox/authorizations', {
    token,
    body: { card_id: cardId, amount, merchant, mcc: '5999', country: 'GH', currency: 'USD' },
  });

/** The card's ledger: available (card account) and held (approved, unsettled authorisations). */
export async function cardLedger(t: TestApp, cardId: string) {
  const acc = await cardAccounts(t.ctx.db, cardId);
  return { available: acc.card.balance, held: acc.hold.balance };
}

export async function issuerTokenOf(t: TestApp, cardId: string) {
  const [c] = await t.ctx.db.select({ token: cards.issuerToken }).from(cards).where(eq(cards.id, cardId));
  return c!.token;
}

export const issuerBalance = async (t: TestApp, cardId: string) =>
  t.ctx.issuer.balanceOf(await issuerTokenOf(t, cardId));

type Rows = { rows: Record<string, unknown>[] };
export const rows = async (t: TestApp, q: ReturnType<typeof sql>) =>
  ((await t.ctx.db.execute(q)) as unknown as Rows).rows;

/** The whole ledger holds together: balances = sums of entries, transfers balance, nothing below zero. */
export async function expectLedgerConsistent(
  t: TestApp,
  expect: (v: unknown, m?: string) => { toEqual(x: unknown): void },
) {
  const drift = await rows(
    t,
    sql`select a.id from ledger_accounts a
          left join (select account_id, sum(amount) as s from ledger_entries group by account_id) e on e.account_id = a.id
         where a.balance <> coalesce(e.s, 0)`,
  );
  expect(drift, 'accounts whose balance is not the sum of their entries').toEqual([]);
  const unbalanced = await rows(
    t,
    sql`select transfer_id from ledger_entries group by transfer_id having sum(amount) <> 0`,
  );
  expect(unbalanced, 'transfers whose entries do not sum to zero').toEqual([]);
  // A card may owe (issue 32): only a clearing, a force-post or a lost dispute's take-back (issue 36) may take it below
  // zero, nothing else, no other account.
  const negative = await rows(
    t,
    sql`select id from ledger_accounts where allow_negative = false and balance < 0 and kind <> 'card'`,
  );
  expect(negative, 'accounts below zero that may not be').toEqual([]);
  const intoDebt = await rows(
    t,
    sql`select e.id from ledger_entries e
          join ledger_accounts a on a.id = e.account_id
          join ledger_transfers tr on tr.id = e.transfer_id
         where a.allow_negative = false and e.amount < 0 and e.balance_after < 0
           and coalesce(tr.meta->>'stage', '') not in ('cleared', 'force_posted', 'dispute_debit')`,
  );
  expect(intoDebt, 'movements below zero other than clearings, force-posts and dispute take-backs').toEqual([]);
}

/** Moves the app clock to an instant (forwards or back). */
export function setClock(t: TestApp, at: Date | string) {
  t.clock.advance(new Date(at).getTime() - t.clock.now().getTime());
}

/** Logs the actor in again (sessions idle out when the clock jumps); moves the clock by 30 s. */
export async function relogin(t: TestApp, a: Actor) {
  const s = await logIn(t, a.email, a.password, a.secret);
  a.token = s.token;
  a.session = s.session;
}

export { walletOf };
