import { eq } from 'drizzle-orm';
import { type DisputeState, STAFF_ROLES } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { DISPUTE_REASON_NAMES, centsText } from '@shared/vocabulary';
import type { AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import { HTTP } from '../../lib/http';
import { cardEventData } from '../cards/events';
import type { CardRow } from '../cards/presenters';
import { emitEvent } from '../integrations/webhooks';
import type { NotificationEvent } from '../notifications/service';
import { notify } from '../notifications/service';
import type { DisputeRow } from './queries';

/** The issuer, when it moves a dispute (its outcome). */
export const ISSUER_ACTOR = 'Card issuer';

/** Who moved a dispute, as its history says: the person's name and role. */
export async function actorName(db: DbOrTx, me: AuthUser): Promise<string> {
  const [u] = await db.select({ first: users.firstName, last: users.lastName }).from(users).where(eq(users.id, me.id));
  const name = `${u?.first ?? ''} ${u?.last ?? ''}`.trim() || me.email;
  return me.via === 'api' ? `${name} (API)` : `${name} (${me.role})`;
}

/** A customer reads staff in a dispute's history as the support team, not by name. */
const STAFF_ACTOR = new RegExp(`\\((${STAFF_ROLES.join('|')})\\)$`);
export const actorForCustomer = (actor: string) => (STAFF_ACTOR.test(actor) ? 'Support team' : actor);

/** The webhook of each change (Stripe Issuing's issuing_dispute.* in the card.dispute namespace). */
export type DisputeEvent = 'created' | 'submitted' | 'updated' | 'won' | 'lost' | 'withdrawn';

const TITLES: Record<DisputeEvent, (d: DisputeRow, merchant: string) => string> = {
  created: (d, m) => `Dispute of ${centsText(d.amount, 'USD')} at ${m} received`,
  submitted: (_d, m) => `Your dispute of a payment at ${m} is under review`,
  updated: (_d, m) => `Your dispute of a payment at ${m} is back with us`,
  won: (_d, m) => `You won your dispute of a payment at ${m}`,
  lost: (_d, m) => `Your dispute of a payment at ${m} was not accepted`,
  withdrawn: (_d, m) => `Your dispute of a payment at ${m} was withdrawn`,
};

function body(e: DisputeEvent, d: DisputeRow, card: CardRow, takenBack: number): string {
  const amount = centsText(d.amount, 'USD');
  const on = `your card ${card.nickname}${card.last4 ? ` (•••• ${card.last4})` : ''}`;
  switch (e) {
    case 'created':
      return `We received your dispute (${DISPUTE_REASON_NAMES[d.reason as keyof typeof DISPUTE_REASON_NAMES]}) of ${amount} on ${on}. We will review it and send it to the card issuer.`;
    case 'submitted':
      return d.provisional
        ? `We sent your dispute to the card issuer. ${amount} was credited to ${on} while it decides; it is taken back if the dispute is lost.`
        : `We sent your dispute to the card issuer. It usually decides within a few weeks.`;
    case 'updated':
      return takenBack
        ? `The card issuer did not accept the dispute as we sent it. The provisional credit of ${centsText(takenBack, 'USD')} was taken back from ${on}; we will review the dispute and send it again.`
        : 'The card issuer did not accept the dispute as we sent it. We will review it and send it again.';
    case 'won':
      return `The card issuer decided in your favour: ${amount} ${d.provisional ? 'credited earlier stays on' : 'was credited to'} ${on}.`;
    case 'lost':
      return d.provisional
        ? `The card issuer decided against the dispute. The provisional credit of ${centsText(d.provisional, 'USD')} was taken back from ${on}.`
        : 'The card issuer decided against the dispute. Nothing changed on your card.';
    case 'withdrawn':
      return d.provisional
        ? `The dispute was withdrawn. The provisional credit of ${centsText(d.provisional, 'USD')} was taken back from ${on}.`
        : 'The dispute was withdrawn. Nothing changed on your card.';
  }
}

/**
 * Tells the card's owner (notification, mail) and their integration (webhook), in the change's transaction. takenBack:
 * a provisional credit the change took back that the row no longer shows (the issuer refused the dispute).
 */
export async function announce(
  tx: DbOrTx,
  e: DisputeEvent,
  d: DisputeRow,
  card: CardRow,
  merchant: string,
  now: Date,
  takenBack = 0,
) {
  const notice: NotificationEvent = {
    type: 'card_dispute_updated',
    title: TITLES[e](d, merchant),
    body: body(e, d, card, takenBack),
    link: `/portal/disputes/${d.id}`,
    eventKey: `dispute:${d.id}:${e}`,
  };
  await notify(tx, { owner: card.walletId }, notice, now);
  await emitEvent(
    tx,
    card.walletId,
    `card.dispute.${e}`,
    cardEventData(tx, card, {
      dispute_id: d.id,
      transaction_id: d.transactionId,
      merchant,
      reason: d.reason,
      amount: formatMoney(d.amount),
      state: d.state as DisputeState,
      provisional_credit: formatMoney(d.provisional),
      credited: formatMoney(d.credited),
    }),
    now,
  );
}

/** A customer's change of a dispute, in the audit trail (staff changes are written by plugins/audit.ts). */
export function auditCustomer(
  tx: DbOrTx,
  me: AuthUser,
  req: { ip: string; id: string; url: string },
  action: 'dispute.create' | 'dispute.withdraw',
  disputeId: string,
  details: Record<string, unknown>,
  at: Date,
) {
  return tx.insert(auditLog).values({
    id: crypto.randomUUID(),
    actorId: me.id,
    actorEmail: me.email,
    actorRole: me.role,
    action,
    objectType: 'dispute',
    objectId: disputeId,
    details: { ...details, via: me.via, route: req.url.split('?')[0] },
    status: action === 'dispute.create' ? HTTP.CREATED : HTTP.OK,
    ip: req.ip,
    requestId: req.id,
    createdAt: at,
  });
}
