import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardTransactions } from '../../server/db/schema';
import { IssuerError } from '../../server/issuer/port';
import { type TestApp, startTestApp } from './support/app';
import { newIndividual, newStaff } from './support/actors';
import { issuerTokenOf, newCard, verifyAccount } from './support/cards';
import { backdateAuthorization, figuresAgree } from './support/card-figures';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const cents = fc.integer({ min: 1, max: 6_000 });
const which = fc.nat({ max: 9 });

/** One message of a card's payments, as the sandbox brings them. */
const message = fc.oneof(
  fc.record({ kind: fc.constant('authorize' as const), amount: cents, partial: fc.boolean() }),
  fc.record({ kind: fc.constant('increment' as const), which, amount: cents }),
  fc.record({ kind: fc.constant('reverse' as const), which, amount: fc.option(cents, { nil: null }) }),
  fc.record({
    kind: fc.constant('clear' as const),
    which,
    amount: fc.option(cents, { nil: null }),
    close: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('refund' as const), which: fc.option(which, { nil: null }), amount: cents }),
  fc.record({ kind: fc.constant('forcePost' as const), amount: cents }),
  fc.record({ kind: fc.constant('expire' as const) }),
);

describe('a card under random lifecycle messages', () => {
  it('keeps its figures true after every message', { timeout: 600_000 }, async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 10_000_000);
    await verifyAccount(t, a); // more than the 5 cards of an unverified account
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 10 }), async (messages) => {
        const { card } = await newCard(t, a, { purpose: 'general', card_amount: '100.00' });
        const token = await issuerTokenOf(t, card.id);
        const refs: string[] = [];
        const authIds: string[] = [];
        for (const m of messages) {
          const ref = () => refs[('which' in m && m.which !== null ? m.which : 0) % Math.max(1, refs.length)];
          const merchant = { merchant: 'Shop', mcc: '5999', country: 'GH' };
          try {
            switch (m.kind) {
              case 'authorize': {
                const d = await t.ctx.issuer.simulateAuthorization(token, {
                  amount: m.amount,
                  currency: 'USD',
                  ...merchant,
                  partialAllowed: m.partial,
                });
                const [row] = await t.ctx.db
                  .select()
                  .from(cardTransactions)
                  .where(eq(cardTransactions.id, d.transactionId));
                if (d.approved) {
                  refs.push(row!.issuerReference!);
                  authIds.push(row!.id);
                }
                break;
              }
              case 'increment':
                if (refs.length) await t.ctx.issuer.increment(ref()!, m.amount);
                break;
              case 'reverse':
                if (refs.length) await t.ctx.issuer.reverse(ref()!, m.amount);
                break;
              case 'clear':
                if (refs.length) await t.ctx.issuer.clear(ref()!, m.amount, m.close);
                break;
              case 'refund':
                await t.ctx.issuer.refund(
                  token,
                  { amount: m.amount, ...merchant },
                  m.which === null ? null : (ref() ?? null),
                );
                break;
              case 'forcePost':
                await t.ctx.issuer.forcePost(token, { amount: m.amount, ...merchant });
                break;
              case 'expire':
                for (const id of authIds) await backdateAuthorization(t, id, 8);
                await t.ctx.issuer.expireHolds(7);
                break;
            }
          } catch (e) {
            // a message that does not fit the authorisation's state is refused, and changes nothing
            if (!(e instanceof IssuerError) || e.retryable) throw e;
          }
          await figuresAgree(t, staff, card.id, expect);
        }
      }),
      { numRuns: 20 },
    );
  });
});
