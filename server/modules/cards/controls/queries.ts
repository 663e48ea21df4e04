import { and, count, eq, gte, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { cardControls, cardTransactions, programControls } from '../../../db/schema';

export type CardControlsRow = typeof cardControls.$inferSelect;
export type ProgramControlsRow = typeof programControls.$inferSelect;

export async function controlsOfCard(db: DbOrTx, cardId: string): Promise<CardControlsRow | null> {
  const [row] = await db.select().from(cardControls).where(eq(cardControls.cardId, cardId));
  return row ?? null;
}

/** The program's one row; migration 0038 writes it, so it is only missing from a hand-emptied table. */
export async function programControlsRow(db: DbOrTx): Promise<ProgramControlsRow | null> {
  const [row] = await db.select().from(programControls).where(eq(programControls.id, 1));
  return row ?? null;
}

/** Approved authorisations on the card since a moment (whatever became of them since: settled, reversed, …). */
export async function approvalsSince(db: DbOrTx, cardId: string, since: Date): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(cardTransactions)
    .where(
      and(
        eq(cardTransactions.cardId, cardId),
        eq(cardTransactions.kind, 'authorization'),
        ne(cardTransactions.status, 'declined'),
        gte(cardTransactions.createdAt, since),
      ),
    );
  return Number(r?.n ?? 0);
}
