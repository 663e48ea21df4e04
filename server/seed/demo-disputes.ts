import { and, eq } from 'drizzle-orm';
import type { DisputeBody } from '@shared/contract';
import type { AppContext } from '../context';
import { cardTransactions, cards } from '../db/schema';
import { addMonitor } from '../modules/balances/monitors';
import { performNow } from '../modules/cards/outbox';
import { submitDispute } from '../modules/disputes/issuer';
import { openDispute } from '../modules/disputes/open';
import type { Actor, Actors, DemoEvent } from './demo-events';
import { DEMO_IDS } from './ids';

const SEED_REQUEST = { ip: '127.0.0.1', id: 'seed', url: '/seed' };

/** The settled payment of a card (by its nickname) at a merchant: what its owner disputes. */
async function paymentAt(ctx: AppContext, nickname: string, merchant: string): Promise<string> {
  const [row] = await ctx.db
    .select({ id: cardTransactions.id })
    .from(cardTransactions)
    .innerJoin(cards, eq(cards.id, cardTransactions.cardId))
    .where(
      and(
        eq(cards.nickname, nickname),
        eq(cardTransactions.merchant, merchant),
        eq(cardTransactions.kind, 'authorization'),
        eq(cardTransactions.status, 'settled'),
      ),
    )
    .limit(1);
  if (!row) throw new Error(`demo data: no payment of ${nickname} at ${merchant}`);
  return row.id;
}

/**
 * Disputes in each state (issue 36) and balance alerts staff keep on a master balance and a company's wallet. Each
 * dispute is opened after its payment cleared (demo-cards.ts settles a payment 20 hours after it). The one won credits
 * Acme's flagged 'Travel' card, which spends nothing after, so no later payment of demo-cards.ts's story is decided
 * otherwise (a credit to Ama's card lets a later payment through and turns a decline into another).
 */
export function disputeEvents(a: Actors): DemoEvent[] {
  const ids = new Map<string, string>();
  const staff: Actor = { ...a.admin, id: DEMO_IDS.admin };
  const finance: Actor = { ...a.admin, id: DEMO_IDS.finance, role: 'Finance' };
  const at = (days: number, run: (ctx: AppContext) => Promise<unknown>): DemoEvent => ({
    hoursAgo: days * 24,
    run: async (ctx) => void (await run(ctx)),
  });
  const open = (days: number, name: string, who: Actor, card: string, merchant: string, body: DisputeBody) =>
    at(days, async (ctx) => {
      const payment = await paymentAt(ctx, card, merchant);
      ids.set(name, await openDispute(ctx, who, payment, body, [], SEED_REQUEST));
    });
  const submit = (days: number, name: string, note: string) =>
    at(days, async (ctx) => performNow(ctx, await submitDispute(ctx, staff, ids.get(name)!, note)));
  const resolve = (days: number, name: string, outcome: 'won' | 'lost') =>
    at(days, (ctx) => ctx.issuer.resolveDispute(ids.get(name)!, outcome));

  return [
    open(66, 'amazon', a.ama, 'Online shopping', 'Amazon.com', {
      reason: 'not_received',
      amount: 4_520,
      explanation: 'The order never arrived; the tracking number stopped updating in the US.',
    }),
    submit(65, 'amazon', 'Tracking shows no delivery; sent to the issuer.'),
    resolve(50, 'amazon', 'lost'),
    open(54, 'marriott', a.kofi, 'Travel', 'Marriott Lagos', {
      reason: 'duplicate',
      amount: 21_000,
      explanation: 'The hotel says it charged the stay twice; we were charged once for two nights only.',
    }),
    submit(53, 'marriott', 'Folio attached by the customer by email.'),
    resolve(40, 'marriott', 'won'),
    open(6, 'fuel', a.kofi, 'Fuel - Fleet 1', 'GOIL Tema', {
      reason: 'incorrect_amount',
      amount: 1_025,
      explanation: 'The pump receipt says 50.00 USD; the card was charged 60.25 USD.',
    }),
    submit(5, 'fuel', 'Receipt checked: the difference is 10.25 USD.'),
    open(1, 'netflix', a.ama, 'Streaming', 'Netflix', {
      reason: 'canceled',
      amount: 1_549,
      explanation: 'I cancelled the subscription the month before and was charged again.',
    }),
    at(75, (ctx) => addMonitor(ctx, finance, { account: 'master:media', below: 100_000 })),
    at(60, (ctx) => addMonitor(ctx, finance, { account: DEMO_IDS.company, below: 50_000 })),
  ];
}
