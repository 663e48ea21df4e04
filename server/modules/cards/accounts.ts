import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';

/**
 * Each card has two ledger accounts: 'card' holds what is available to spend, 'card_hold' what
 * approved authorisations reserve until they settle or are reversed. Ledger balance = both.
 */
export async function createCardAccounts(db: DbOrTx, cardId: string) {
  const card = crypto.randomUUID();
  const hold = crypto.randomUUID();
  await db.insert(ledgerAccounts).values([
    { id: card, kind: 'card', ownerId: cardId, currency: 'USD' },
    { id: hold, kind: 'card_hold', ownerId: cardId, currency: 'USD' },
  ]);
  return { card, hold };
}

export interface CardAccounts {
  card: { id: string; balance: number };
  hold: { id: string; balance: number };
}

/** The card's two accounts; with `lock`, locked FOR UPDATE in id order, as a posting locks them. */
export async function cardAccounts(db: DbOrTx, cardId: string, opts: { lock?: boolean } = {}): Promise<CardAccounts> {
  const q = db
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.ownerId, cardId), inArray(ledgerAccounts.kind, ['card', 'card_hold'])));
  const rows = opts.lock ? await q.orderBy(ledgerAccounts.id).for('update') : await q;
  const card = rows.find((r) => r.kind === 'card');
  const hold = rows.find((r) => r.kind === 'card_hold');
  if (!card || !hold) throw new Error(`card ${cardId} has no ledger accounts`);
  return { card, hold };
}

/** Balances of many cards at once: available and held, by card id. */
export async function balancesOf(
  db: DbOrTx,
  cardIds: string[],
): Promise<Map<string, { available: number; held: number }>> {
  const map = new Map<string, { available: number; held: number }>();
  if (!cardIds.length) return map;
  const rows = await db
    .select({ ownerId: ledgerAccounts.ownerId, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(inArray(ledgerAccounts.ownerId, cardIds), inArray(ledgerAccounts.kind, ['card', 'card_hold'])));
  for (const r of rows) {
    const b = map.get(r.ownerId!) ?? { available: 0, held: 0 };
    if (r.kind === 'card') b.available = r.balance;
    else b.held = r.balance;
    map.set(r.ownerId!, b);
  }
  return map;
}
