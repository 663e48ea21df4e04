import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sandboxAuthorizations, sandboxCards, sandboxMessages } from '../db/schema';
import type { IssuerFaults } from '../lib/faults';
import {
  type AuthorizationDecision,
  type AuthorizationHandler,
  type AuthorizationRequest,
  type CompanyAnswer,
  IssuerError,
  type MerchantMessage,
  type StepOutcome,
} from './port';

export type MessageKind =
  | 'authorization'
  | 'increment'
  | 'reversal'
  | 'clearing'
  | 'expiry'
  | 'merchant_refund'
  | 'force_post'
  | 'dispute_outcome';

/**
 * How the sandbox issuer tells the platform about a card's payments: each message recorded as
 * pending before it is sent, then the platform's answer applied to the sandbox's own balance and
 * authorisation once. A message left pending (a crash in between) is sent again with its id.
 */
export function sandboxMessenger(opts: {
  db: Db;
  now: () => Date;
  handler: () => AuthorizationHandler;
  faults: IssuerFaults;
}) {
  const { db, now, faults } = opts;

  /** Sends one message to the platform; a repeat of the id is answered with the first outcome. */
  function send(
    kind: MessageKind,
    ref: string | null,
    id: string,
    p: Record<string, unknown>,
  ): Promise<AuthorizationDecision | StepOutcome> {
    const h = opts.handler();
    const token = p.token as string;
    switch (kind) {
      case 'authorization': {
        const req = p.req as AuthorizationRequest;
        const reason = p.issuerReason as string | null;
        const company = (p.company as CompanyAnswer | undefined) ?? null;
        return reason ? h.declinedByIssuer(token, req, reason, id) : h.authorize(token, req, id, company);
      }
      case 'increment':
        return h.increment(ref!, id, p.amount as number);
      case 'reversal':
        return h.reverse(ref!, id, (p.amount as number | null) ?? null);
      case 'clearing':
        return h.clear(ref!, id, (p.amount as number | null) ?? null, p.close !== false);
      case 'expiry':
        return h.expire(ref!, id, p.days as number);
      case 'merchant_refund':
        return h.refund(token, id, p.msg as MerchantMessage, (p.original as string | null) ?? null);
      case 'force_post':
        return h.forcePost(token, id, p.msg as MerchantMessage);
      case 'dispute_outcome':
        return h.disputeResolved(p.dispute as string, id, p.outcome as 'won' | 'lost');
    }
  }

  /**
   * Moves the sandbox's balance by what the platform answered, once per message, and keeps its
   * authorisation's status and amount as the platform's.
   */
  async function apply(id: string, out: AuthorizationDecision | StepOutcome) {
    await db.transaction(async (tx) => {
      const [m] = await tx
        .update(sandboxMessages)
        .set({ state: 'done', availableDelta: out.availableDelta })
        .where(and(eq(sandboxMessages.id, id), eq(sandboxMessages.state, 'pending')))
        .returning();
      if (!m) return;
      if (out.availableDelta)
        await tx
          .update(sandboxCards)
          .set({ balance: sql`${sandboxCards.balance} + ${out.availableDelta}`, updatedAt: now() })
          .where(eq(sandboxCards.token, m.cardToken));
      if (m.authorizationId && out.authStatus)
        await tx
          .update(sandboxAuthorizations)
          .set({
            status: out.authStatus,
            amount: out.authAmount ?? sql`${sandboxAuthorizations.amount}`,
            declineReason: 'declineReason' in out && m.kind === 'authorization' ? out.declineReason : undefined,
            updatedAt: now(),
          })
          .where(eq(sandboxAuthorizations.id, m.authorizationId));
    });
  }

  /**
   * One message: recorded as pending, sent, then applied. A refusal (the message does not fit)
   * removes the record; an outcome lost to a crash or a failure leaves it pending for resume().
   */
  async function message<T extends AuthorizationDecision | StepOutcome>(
    kind: MessageKind,
    token: string,
    ref: string | null,
    id: string,
    payload: Record<string, unknown>,
    sendIt: (id: string) => Promise<AuthorizationDecision | StepOutcome>,
  ): Promise<T> {
    await db
      .insert(sandboxMessages)
      .values({ id, kind, cardToken: token, authorizationId: ref, payload: { ...payload, token }, createdAt: now() });
    let out: AuthorizationDecision | StepOutcome;
    try {
      out = await sendIt(id);
    } catch (e) {
      if (e instanceof IssuerError && !e.retryable) await db.delete(sandboxMessages).where(eq(sandboxMessages.id, id));
      throw e;
    }
    // SANDBOX_ISSUER_FAULTS=message=fail: the platform has answered, the sandbox dies before it applies it.
    if (faults.message === 'fail')
      throw new IssuerError('The sandbox issuer failed after the platform answered (SANDBOX_ISSUER_FAULTS).', true);
    await apply(id, out);
    return out as T;
  }

  return { send, apply, message };
}
