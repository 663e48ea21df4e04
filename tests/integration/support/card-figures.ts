import { sql } from 'drizzle-orm';
import { centsOf } from '@shared/money';
import type { Actor } from './actors';
import type { TestApp } from './app';
import { cardLedger, issuerBalance, rows } from './cards';

/** The staff's sums of a card (GET /cards/{id} additional_data). */
export const cardSumsOf = async (t: TestApp, staff: Actor, cardId: string) =>
  (await t.api('GET', `/cards/${cardId}`, { token: staff.token })).body.data.additional_data;

/** What the platform put on the card and took off it (loads less withdrawals, fees, maintenance), from the ledger. */
async function fundedNet(t: TestApp, cardId: string) {
  const [r] = await rows(
    t,
    sql`select coalesce(sum(e.amount), 0) as n from ledger_entries e
          join ledger_accounts a on a.id = e.account_id
          join ledger_transfers tr on tr.id = e.transfer_id
         where a.owner_id = ${cardId} and a.kind = 'card' and tr.kind <> 'card_spend'`,
  );
  return Number(r!.n);
}

type Expect = (v: unknown, m?: string) => { toBe(x: unknown): void };

/**
 * The card's figures agree (issue 32): the issuer's balance is the ledger's available; the staff's
 * sums add up, available + held = funded − settled + refund and held = approved − reversal − what
 * clearings took from holds; held is what the pending authorisations still hold; debt is what the
 * card owes.
 */
export async function figuresAgree(t: TestApp, staff: Actor, cardId: string, expect: Expect) {
  const l = await cardLedger(t, cardId);
  expect(await issuerBalance(t, cardId), 'issuer balance = available').toBe(l.available);
  const s = await cardSumsOf(t, staff, cardId);
  expect(centsOf(s.held), 'held').toBe(l.held);
  expect(centsOf(s.available), 'available').toBe(l.available);
  expect(centsOf(s.ledger), 'ledger = available + held').toBe(l.available + l.held);
  expect(centsOf(s.debt), 'debt').toBe(Math.max(0, -l.available));
  const funded = await fundedNet(t, cardId);
  expect(l.available + l.held, 'available + held = funded - settled + refund').toBe(
    funded - centsOf(s.settled_sum) + centsOf(s.refund_sum),
  );
  const [r] = await rows(
    t,
    sql`select coalesce(sum(from_available), 0) as fa,
               coalesce(sum(held) filter (where kind = 'authorization' and status = 'approved'), 0) as open
          from card_transactions where card_id = ${cardId}`,
  );
  const fromHolds = centsOf(s.settled_sum) - Number(r!.fa);
  expect(l.held, 'held = approved - reversal - cleared from holds').toBe(
    centsOf(s.approved_sum) - centsOf(s.reversal_sum) - fromHolds,
  );
  expect(l.held, 'held = what pending authorisations hold').toBe(Number(r!.open));
}

/**
 * Makes an authorisation older by some days, at the platform and at the sandbox issuer, so an expiry
 * pass takes it without moving the clock (which would age every other test's holds in a shared database).
 */
export async function backdateAuthorization(t: TestApp, authId: string, days: number) {
  const ms = days * 86_400_000;
  const [a] = await rows(
    t,
    sql`update card_transactions set created_at = created_at - make_interval(secs => ${ms / 1000})
         where id = ${authId} returning issuer_reference`,
  );
  await rows(
    t,
    sql`update sandbox_authorizations set created_at = created_at - make_interval(secs => ${ms / 1000})
         where id = ${a!.issuer_reference as string}::uuid returning id`,
  );
}
