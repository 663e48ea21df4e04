import { and, eq } from 'drizzle-orm';
import { isStaff } from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { cards, companies, users } from '../../db/schema';
import { notFound } from '../../lib/http';
import { walletIdOf } from '../account/presenters';
import type { CardRow } from './presenters';

/** A card the caller may reach: customers only their wallet's cards (else 404), staff any. */
export async function cardForCaller(
  ctx: AppContext,
  me: AuthUser,
  cardId: string,
  db: DbOrTx = ctx.db,
): Promise<CardRow> {
  const [card] = await db.select().from(cards).where(eq(cards.id, cardId));
  if (!card) throw notFound('The card');
  if (!isStaff(me.role) && card.walletId !== walletIdOf({ id: me.id, role: me.role, companyId: me.companyId }))
    throw notFound('The card');
  return card;
}

/** The owner's verification state and the company whose fee schedule applies. */
export async function ownerProfile(
  db: DbOrTx,
  walletId: string,
): Promise<{ verified: boolean; companyId: string | null; name: string; type: 'Individual' | 'Company' }> {
  const [c] = await db.select().from(companies).where(eq(companies.id, walletId));
  if (c) return { verified: c.state === 'Verified', companyId: c.id, name: c.companyName, type: 'Company' };
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, walletId), eq(users.role, 'Individual')));
  if (!u) throw notFound('The wallet');
  return {
    verified: u.state === 'Verified',
    companyId: null,
    name: `${u.firstName} ${u.lastName}`,
    type: 'Individual',
  };
}
