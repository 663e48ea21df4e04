import { and, asc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Db, DbOrTx } from '../db/client';
import type { AuditRow } from '../db/schema';
import { sandboxAuthorizations, sandboxCards, sandboxDisputes, sandboxMessages, sandboxOperations } from '../db/schema';
import type { IssuerFaults, IssuerOperation } from '../lib/faults';
import { randomToken, seal, unseal } from '../lib/crypto';
import { generatePan } from './luhn';
import { type MessageKind, sandboxMessenger } from './sandbox-messages';
import {
  type AuthorizationDecision,
  type AuthorizationHandler,
  type AuthorizationRequest,
  type CompanyAnswer,
  type MerchantMessage,
  type StepOutcome,
  type Billing,
  type Brand,
  type CardIssuer,
  IssuerError,
} from './port';

/** Sandbox BINs: Visa (4…), Mastercard (5…), and a range for tokenised cards (8…). */
const BIN: Record<Brand, string> = { visa: '453201', mastercard: '522222', tokenised: '888000' };

const BILLING: Billing & Record<string, string> = {
  AdrLine1: '1 Sandbox Way',
  AdrLine2: 'Suite 400',
  City: 'Wilmington',
  State: 'DE',
  Country: 'US',
  ZipCode: '19801',
};

/**
 * A test holder, like a sandbox's magic card numbers: a card whose holder's last name is
 * Topupfail is loaded at creation, and every later load fails as if the issuer were down, so an
 * issuer failure can be walked through end to end on a running server.
 */
const FAILING_HOLDER = / Topupfail$/i;

/**
 * The card a payment is for: the issuer's token, or the platform's card id within the caller's reach (the wallet whose
 * cards the caller may charge; null: any card, as staff).
 */
export type CardRef = string | { cardId: string; walletId: string | null };

/** The one-call path's answer: its approval, or the company's answer it asked for; null when it wrote nothing. */
type InOne = AuthorizationDecision | { company: CompanyAnswer } | null;

export interface SandboxIssuer extends CardIssuer {
  /**
   * A merchant charges the card: the issuer checks the card, then asks the platform. `tried`: the one-call path
   * (approveByCard) was tried already and answered this (null, or the company's answer), so it is not tried again.
   */
  simulateAuthorization(
    token: string,
    req: AuthorizationRequest,
    tried?: { company: CompanyAnswer } | null,
  ): Promise<AuthorizationDecision>;
  /**
   * The one-call path for a card named by the platform's id within the caller's reach, with the staff's audit row
   * written in its transaction; absent when the path is off (a fault drill). Answers an approval; otherwise, nothing
   * written, null or the company's answer, for simulateAuthorization's `tried` (after the caller's own card lookup).
   */
  approveByCard?: (card: CardRef, req: AuthorizationRequest, audit: AuditRow | null) => Promise<InOne>;
  increment(issuerReference: string, amount: number): Promise<AuthorizationDecision>;
  /** the whole held amount when no amount is given */
  reverse(issuerReference: string, amount?: number | null): Promise<StepOutcome>;
  /** no amount: the held amount */
  clear(issuerReference: string, amount: number | null, close: boolean): Promise<StepOutcome>;
  settle(issuerReference: string): Promise<StepOutcome>;
  refund(token: string, msg: MerchantMessage, original: string | null): Promise<StepOutcome>;
  forcePost(token: string, msg: MerchantMessage): Promise<StepOutcome>;
  /** expires the authorisations pending for longer than `days`; answers how many */
  expireHolds(days: number): Promise<number>;
  /** sends again the messages whose answer the sandbox never applied (a crash in between); answers how many */
  resume(olderThanMs?: number): Promise<number>;
  /** what the issuer holds for the card (for reconciliation) */
  balanceOf(token: string): Promise<number>;
  /** the issuer decides a dispute the platform filed (by the platform's id of it) and tells the platform */
  resolveDispute(disputeId: string, outcome: 'won' | 'lost'): Promise<StepOutcome>;
}

/**
 * The built-in card issuer: numbers, CVCs and balances kept in its own tables (numbers and
 * CVCs sealed under ENCRYPTION_KEY), statuses, and authorisations decided together with the
 * platform through the AuthorizationHandler.
 */
export function createSandboxIssuer(opts: {
  db: Db;
  key: Buffer;
  now: () => Date;
  handler: () => AuthorizationHandler;
  /** SANDBOX_ISSUER_FAULTS */
  faults?: IssuerFaults;
  /** how long a 'timeout' fault holds its answer back: longer than the client waits */
  hangMs?: number;
  /**
   * The platform's approval of a payment and this issuer's records of it in one transaction. Otherwise, nothing
   * written, it answers null or the company's answer it already asked for, and the payment goes the long way,
   * message by message (the message carrying that answer).
   */
  approveInOne?: (
    card: CardRef,
    req: AuthorizationRequest,
    ref: string,
    payload: Record<string, unknown>,
    audit?: AuditRow | null,
  ) => Promise<InOne>;
}): SandboxIssuer {
  const { db, key, now } = opts;
  const faults = opts.faults ?? {};

  async function card(token: string, on: DbOrTx = db) {
    const [c] = await on.select().from(sandboxCards).where(eq(sandboxCards.token, token));
    if (!c) throw new IssuerError('The issuer does not know this card.');
    return c;
  }

  /**
   * Performs an operation once per id: the work and the record of its id commit together, and a
   * repeat of the id is answered with what the first call answered. A refusal records nothing,
   * so a repeat is tried again.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: operations either answer a record or nothing (void callbacks)
  async function once<T extends Record<string, unknown> | void>(
    opId: string,
    operation: IssuerOperation,
    token: string | null,
    work: (tx: DbOrTx) => Promise<T>,
  ): Promise<T> {
    if (faults[operation] === 'fail')
      throw new IssuerError(`The sandbox issuer failed on ${operation} (SANDBOX_ISSUER_FAULTS).`, true);
    const result = await db.transaction(async (tx) => {
      const [fresh] = await tx
        .insert(sandboxOperations)
        .values({ opId, operation, cardToken: token, createdAt: now() })
        .onConflictDoNothing()
        .returning({ opId: sandboxOperations.opId });
      if (!fresh) {
        const [done] = await tx
          .update(sandboxOperations)
          .set({ repeats: sql`${sandboxOperations.repeats} + 1` })
          .where(eq(sandboxOperations.opId, opId))
          .returning();
        if (done!.operation !== operation || done!.cardToken !== token)
          throw new IssuerError(`Operation ${opId} was already used for another operation.`);
        return (operation === 'issue' ? done!.result : undefined) as T;
      }
      const r = await work(tx);
      if (r) await tx.update(sandboxOperations).set({ result: r }).where(eq(sandboxOperations.opId, opId));
      return r;
    });
    // The work is done; the answer is lost on its way (the client has stopped waiting).
    if (faults[operation] === 'timeout') await new Promise((resolve) => setTimeout(resolve, opts.hangMs ?? 15_000));
    return result;
  }

  const setStatus = (opId: string, operation: 'freeze' | 'unfreeze', token: string, status: string, from: string[]) =>
    once(opId, operation, token, async (tx) => {
      const c = await card(token, tx);
      if (c.status === 'terminated') throw new IssuerError('The card has been terminated.');
      if (!from.includes(c.status)) return;
      await tx.update(sandboxCards).set({ status, updatedAt: now() }).where(eq(sandboxCards.token, token));
    });

  const expired = (c: { expMonth: number; expYear: number }) => {
    const n = now();
    return c.expYear < n.getUTCFullYear() || (c.expYear === n.getUTCFullYear() && c.expMonth < n.getUTCMonth() + 1);
  };

  async function authorization(ref: string) {
    const [a] = await db.select().from(sandboxAuthorizations).where(eq(sandboxAuthorizations.id, ref));
    if (!a) throw new IssuerError('The issuer does not know this authorisation.');
    return a;
  }

  const { send, apply, message } = sandboxMessenger({ db, now, handler: opts.handler, faults });

  return {
    issue: ({ brand, holder, opId }) =>
      once(opId, 'issue', null, async (tx) => {
        const pan = generatePan(BIN[brand]);
        const cvc = String(randomInt(1000)).padStart(3, '0');
        const n = now();
        const expYear = n.getUTCFullYear() + 3;
        const expMonth = n.getUTCMonth() + 1;
        const token = `sbx_card_${randomToken(18)}`;
        await tx.insert(sandboxCards).values({
          id: crypto.randomUUID(),
          token,
          brand,
          panSealed: seal(pan, key),
          cvcSealed: seal(cvc, key),
          last4: pan.slice(-4),
          expMonth,
          expYear,
          holder,
          billing: { ...BILLING },
          createdAt: n,
          updatedAt: n,
        });
        return { token, last4: pan.slice(-4), expMonth, expYear, billing: { ...BILLING } };
      }),

    load: (token, cents, opId) =>
      once(opId, 'load', token, async (tx) => {
        const c = await card(token, tx);
        if (c.status === 'terminated') throw new IssuerError('The card has been terminated.');
        if (FAILING_HOLDER.test(c.holder)) {
          const [loaded] = await tx
            .select({ opId: sandboxOperations.opId })
            .from(sandboxOperations)
            .where(
              and(
                eq(sandboxOperations.cardToken, token),
                eq(sandboxOperations.operation, 'load'),
                ne(sandboxOperations.opId, opId),
              ),
            )
            .limit(1);
          if (loaded)
            throw new IssuerError(
              `The sandbox issuer fails every top-up of a card held by "${c.holder}" (a test holder).`,
              true,
            );
        }
        await tx
          .update(sandboxCards)
          .set({ balance: sql`${sandboxCards.balance} + ${cents}`, updatedAt: now() })
          .where(eq(sandboxCards.token, token));
      }),

    unload: (token, cents, opId) =>
      once(opId, 'unload', token, async (tx) => {
        const [r] = await tx
          .update(sandboxCards)
          .set({ balance: sql`${sandboxCards.balance} - ${cents}`, updatedAt: now() })
          .where(and(eq(sandboxCards.token, token), sql`${sandboxCards.balance} >= ${cents}`))
          .returning({ id: sandboxCards.id });
        if (!r) throw new IssuerError('The card does not hold enough funds at the issuer.');
      }),

    freeze: (token, opId) => setStatus(opId, 'freeze', token, 'frozen', ['active']),
    unfreeze: (token, opId) => setStatus(opId, 'unfreeze', token, 'active', ['frozen']),

    terminate: (token, opId) =>
      once(opId, 'terminate', token, async (tx) => {
        await card(token, tx);
        await tx
          .update(sandboxCards)
          .set({ status: 'terminated', balance: 0, updatedAt: now() })
          .where(eq(sandboxCards.token, token));
      }),

    async reveal(token) {
      const c = await card(token);
      return { pan: unseal(c.panSealed, key), cvc: unseal(c.cvcSealed, key), expMonth: c.expMonth, expYear: c.expYear };
    },

    dispute: (token, filing, opId) =>
      once(opId, 'dispute', token, async (tx) => {
        const c = await card(token, tx);
        if (c.status === 'terminated') throw new IssuerError('The card has been terminated.');
        const id = crypto.randomUUID();
        await tx.insert(sandboxDisputes).values({
          id,
          platformReference: filing.disputeId,
          cardToken: token,
          amount: filing.amount,
          provisional: filing.provisional,
          createdAt: now(),
          updatedAt: now(),
        });
        if (filing.provisional)
          await tx
            .update(sandboxCards)
            .set({ balance: sql`${sandboxCards.balance} + ${filing.provisional}`, updatedAt: now() })
            .where(eq(sandboxCards.token, token));
        return { reference: `sbx_dp_${id}` };
      }),

    withdrawDispute: (token, disputeId, opId) =>
      once(opId, 'withdraw_dispute', token, async (tx) => {
        const [d] = await tx
          .update(sandboxDisputes)
          .set({ status: 'withdrawn', updatedAt: now() })
          .where(and(eq(sandboxDisputes.platformReference, disputeId), eq(sandboxDisputes.status, 'open')))
          .returning();
        if (d?.provisional)
          await tx
            .update(sandboxCards)
            .set({ balance: sql`${sandboxCards.balance} - ${d.provisional}`, updatedAt: now() })
            .where(eq(sandboxCards.token, token));
      }),

    async resolveDispute(disputeId, outcome) {
      const id = crypto.randomUUID();
      const payload = { dispute: disputeId, outcome };
      // The decision and the message telling it commit together: resume() sends a message a crash left behind.
      const token = await db.transaction(async (tx) => {
        const [d] = await tx
          .update(sandboxDisputes)
          .set({ status: outcome, updatedAt: now() })
          .where(and(eq(sandboxDisputes.platformReference, disputeId), eq(sandboxDisputes.status, 'open')))
          .returning();
        if (!d) throw new IssuerError('The issuer has no open dispute of this id (not sent yet, or decided).');
        await tx.insert(sandboxMessages).values({
          id,
          kind: 'dispute_outcome',
          cardToken: d.cardToken,
          payload: { ...payload, token: d.cardToken },
          createdAt: now(),
        });
        return d.cardToken;
      });
      let out: AuthorizationDecision | StepOutcome;
      try {
        out = await send('dispute_outcome', null, id, { ...payload, token });
      } catch (e) {
        // The platform refuses it for good: the issuer's dispute stays open, the message is gone.
        if (e instanceof IssuerError && !e.retryable)
          await db.transaction(async (tx) => {
            await tx.delete(sandboxMessages).where(eq(sandboxMessages.id, id));
            await tx
              .update(sandboxDisputes)
              .set({ status: 'open' })
              .where(eq(sandboxDisputes.platformReference, disputeId));
          });
        throw e;
      }
      await apply(id, out);
      return out as StepOutcome;
    },

    async balanceOf(token) {
      return (await card(token)).balance;
    },

    async balances(tokens) {
      if (!tokens.length) return new Map();
      const rows = await db
        .select({ token: sandboxCards.token, balance: sandboxCards.balance })
        .from(sandboxCards)
        .where(inArray(sandboxCards.token, tokens));
      return new Map(rows.map((r) => [r.token, r.balance]));
    },

    approveByCard:
      opts.approveInOne && !faults.message
        ? (card, req, audit) => opts.approveInOne!(card, req, crypto.randomUUID(), { req, issuerReason: null }, audit)
        : undefined,

    async simulateAuthorization(token, req, tried) {
      const ref = crypto.randomUUID();
      // A fault drill walks the messages one by one.
      const fast =
        tried !== undefined
          ? tried
          : opts.approveInOne && !faults.message
            ? await opts.approveInOne(token, req, ref, { req, issuerReason: null, token })
            : null;
      if (fast && 'approved' in fast) return fast;
      const c = await card(token);
      const n = now();
      await db.insert(sandboxAuthorizations).values({
        id: ref,
        cardToken: token,
        amount: req.amount,
        currency: req.currency,
        merchant: req.merchant,
        country: req.country,
        mcc: req.mcc,
        status: 'pending',
        createdAt: n,
        updatedAt: n,
      });
      const issuerReason =
        c.status === 'terminated'
          ? 'The card has been terminated.'
          : c.status === 'frozen'
            ? 'The card is frozen. Unfreeze it to pay with it.'
            : expired(c)
              ? 'The card has expired.'
              : null;
      const payload = { req, issuerReason, token, ...(fast ? { company: fast.company } : {}) };
      return message('authorization', token, ref, ref, payload, () => send('authorization', ref, ref, payload));
    },

    async increment(ref, amount) {
      const a = await authorization(ref);
      return message('increment', a.cardToken, ref, crypto.randomUUID(), { amount }, (id) =>
        send('increment', ref, id, { amount }),
      );
    },

    async reverse(ref, amount = null) {
      const a = await authorization(ref);
      return message('reversal', a.cardToken, ref, crypto.randomUUID(), { amount }, (id) =>
        send('reversal', ref, id, { amount }),
      );
    },

    async clear(ref, amount, close) {
      const a = await authorization(ref);
      return message('clearing', a.cardToken, ref, crypto.randomUUID(), { amount, close }, (id) =>
        send('clearing', ref, id, { amount, close }),
      );
    },

    settle(ref) {
      return this.clear(ref, null, true);
    },

    async refund(token, msg, original) {
      await card(token);
      const payload = { msg, original, token };
      return message('merchant_refund', token, null, crypto.randomUUID(), payload, (id) =>
        send('merchant_refund', null, id, payload),
      );
    },

    async forcePost(token, msg) {
      await card(token);
      const payload = { msg, token };
      return message('force_post', token, null, crypto.randomUUID(), payload, (id) =>
        send('force_post', null, id, payload),
      );
    },

    async expireHolds(days) {
      const cutoff = new Date(now().getTime() - days * 86_400_000);
      const due = await db
        .select({ id: sandboxAuthorizations.id, token: sandboxAuthorizations.cardToken })
        .from(sandboxAuthorizations)
        .where(and(eq(sandboxAuthorizations.status, 'approved'), lt(sandboxAuthorizations.createdAt, cutoff)));
      let expiredCount = 0;
      for (const a of due) {
        const id = crypto.randomUUID();
        // One expiry per authorisation (a unique index): another instance running the job takes none twice.
        const [mine] = await db
          .insert(sandboxMessages)
          .values({
            id,
            kind: 'expiry',
            cardToken: a.token,
            authorizationId: a.id,
            payload: { days },
            createdAt: now(),
          })
          .onConflictDoNothing()
          .returning({ id: sandboxMessages.id });
        if (!mine) continue;
        try {
          const out = await send('expiry', a.id, id, { days });
          await apply(id, out);
          expiredCount++;
        } catch (e) {
          // The platform no longer holds it (cleared or reversed meanwhile): nothing to expire.
          if (!(e instanceof IssuerError) || e.retryable) throw e;
          await db.delete(sandboxMessages).where(eq(sandboxMessages.id, id));
        }
      }
      return expiredCount;
    },

    async resume(olderThanMs = 60_000) {
      // a message younger than this may still be on its way: its own call applies it
      const before = new Date(now().getTime() - olderThanMs);
      const pending = await db
        .select()
        .from(sandboxMessages)
        .where(and(eq(sandboxMessages.state, 'pending'), lt(sandboxMessages.createdAt, before)))
        .orderBy(asc(sandboxMessages.createdAt));
      for (const m of pending) {
        try {
          await apply(m.id, await send(m.kind as MessageKind, m.authorizationId, m.id, m.payload));
        } catch (e) {
          if (!(e instanceof IssuerError) || e.retryable) throw e;
          await db.delete(sandboxMessages).where(eq(sandboxMessages.id, m.id));
        }
      }
      return pending.length;
    },
  };
}
