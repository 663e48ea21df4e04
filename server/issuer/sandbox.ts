import { and, eq, sql } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Db } from '../db/client';
import { sandboxAuthorizations, sandboxCards } from '../db/schema';
import { randomToken, seal, unseal } from '../lib/crypto';
import { generatePan } from './luhn';
import { type AuthorizationHandler, type AuthorizationRequest, type Billing, type Brand, type CardIssuer, IssuerError } from './port';

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

export interface SandboxIssuer extends CardIssuer {
  /** A merchant charges the card: the issuer checks the card, then asks the platform. */
  simulateAuthorization(token: string, req: AuthorizationRequest): Promise<{ approved: boolean; declineReason: string | null; transactionId: string }>;
  reverse(issuerReference: string): Promise<void>;
  settle(issuerReference: string): Promise<void>;
  /** what the issuer holds for the card (for reconciliation) */
  balanceOf(token: string): Promise<number>;
}

/**
 * The built-in card issuer: numbers, CVCs and balances kept in its own tables (numbers and
 * CVCs sealed under ENCRYPTION_KEY), statuses, and authorisations decided together with the
 * platform through the AuthorizationHandler.
 */
export function createSandboxIssuer(opts: { db: Db; key: Buffer; now: () => Date; handler: () => AuthorizationHandler }): SandboxIssuer {
  const { db, key, now } = opts;

  async function card(token: string) {
    const [c] = await db.select().from(sandboxCards).where(eq(sandboxCards.token, token));
    if (!c) throw new IssuerError('The issuer does not know this card.');
    return c;
  }

  async function setStatus(token: string, status: string, from: string[]) {
    const c = await card(token);
    if (c.status === 'terminated') throw new IssuerError('The card has been terminated.');
    if (!from.includes(c.status)) return;
    await db.update(sandboxCards).set({ status, updatedAt: now() }).where(eq(sandboxCards.token, token));
  }

  const expired = (c: { expMonth: number; expYear: number }) => {
    const n = now();
    return c.expYear < n.getUTCFullYear() || (c.expYear === n.getUTCFullYear() && c.expMonth < n.getUTCMonth() + 1);
  };

  return {
    async issue({ brand, holder }) {
      const pan = generatePan(BIN[brand]);
      const cvc = String(randomInt(1000)).padStart(3, '0');
      const n = now();
      const expYear = n.getUTCFullYear() + 3;
      const expMonth = n.getUTCMonth() + 1;
      const token = `sbx_card_${randomToken(18)}`;
      await db.insert(sandboxCards).values({
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
      return { token, last4: pan.slice(-4), expMonth, expYear, billing: BILLING };
    },

    async load(token, cents) {
      const c = await card(token);
      if (c.status === 'terminated') throw new IssuerError('The card has been terminated.');
      await db.update(sandboxCards).set({ balance: sql`${sandboxCards.balance} + ${cents}`, updatedAt: now() }).where(eq(sandboxCards.token, token));
    },

    async unload(token, cents) {
      const [r] = await db
        .update(sandboxCards)
        .set({ balance: sql`${sandboxCards.balance} - ${cents}`, updatedAt: now() })
        .where(and(eq(sandboxCards.token, token), sql`${sandboxCards.balance} >= ${cents}`))
        .returning({ id: sandboxCards.id });
      if (!r) throw new IssuerError('The card does not hold enough funds at the issuer.');
    },

    freeze: (token) => setStatus(token, 'frozen', ['active']),
    unfreeze: (token) => setStatus(token, 'active', ['frozen']),

    async terminate(token) {
      await card(token);
      await db.update(sandboxCards).set({ status: 'terminated', balance: 0, updatedAt: now() }).where(eq(sandboxCards.token, token));
    },

    async reveal(token) {
      const c = await card(token);
      return { pan: unseal(c.panSealed, key), cvc: unseal(c.cvcSealed, key), expMonth: c.expMonth, expYear: c.expYear };
    },

    async balanceOf(token) {
      return (await card(token)).balance;
    },

    async simulateAuthorization(token, req) {
      const c = await card(token);
      const ref = crypto.randomUUID();
      const record = (status: string, reason: string | null) =>
        db.insert(sandboxAuthorizations).values({
          id: ref,
          cardToken: token,
          amount: req.amount,
          currency: req.currency,
          merchant: req.merchant,
          country: req.country,
          status,
          declineReason: reason,
          createdAt: now(),
          updatedAt: now(),
        });
      const issuerReason =
        c.status === 'terminated'
          ? 'The card has been terminated.'
          : c.status === 'frozen'
            ? 'The card is frozen. Unfreeze it to pay with it.'
            : expired(c)
              ? 'The card has expired.'
              : c.balance < req.amount
                ? 'Insufficient funds on the card.'
                : null;
      if (issuerReason) {
        await record('declined', issuerReason);
        const d = await opts.handler().declinedByIssuer(token, req, issuerReason, ref);
        return { approved: false, declineReason: issuerReason, transactionId: d.transactionId };
      }
      const decision = await opts.handler().authorize(token, req, ref);
      if (decision.approved) {
        await db.update(sandboxCards).set({ balance: sql`${sandboxCards.balance} - ${req.amount}`, updatedAt: now() }).where(eq(sandboxCards.token, token));
      }
      await record(decision.approved ? 'approved' : 'declined', decision.declineReason);
      return decision;
    },

    async reverse(ref) {
      const [a] = await db
        .update(sandboxAuthorizations)
        .set({ status: 'reversed', updatedAt: now() })
        .where(and(eq(sandboxAuthorizations.id, ref), eq(sandboxAuthorizations.status, 'approved')))
        .returning();
      if (!a) throw new IssuerError('Only an approved authorisation that has not settled can be reversed.');
      await db.update(sandboxCards).set({ balance: sql`${sandboxCards.balance} + ${a.amount}`, updatedAt: now() }).where(eq(sandboxCards.token, a.cardToken));
      await opts.handler().reversed(ref);
    },

    async settle(ref) {
      const [a] = await db
        .update(sandboxAuthorizations)
        .set({ status: 'settled', updatedAt: now() })
        .where(and(eq(sandboxAuthorizations.id, ref), eq(sandboxAuthorizations.status, 'approved')))
        .returning();
      if (!a) throw new IssuerError('Only an approved authorisation that has not been reversed can settle.');
      await opts.handler().settled(ref);
    },
  };
}
