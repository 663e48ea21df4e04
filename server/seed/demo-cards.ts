import { eq } from 'drizzle-orm';
import type { CardPurpose } from '@shared/contract';
import type { AppContext } from '../context';
import { cardTransactions, cards } from '../db/schema';
import { cardMaintenance } from '../jobs/card-jobs';
import { runJob } from '../jobs/runner';
import { changeStatus, toggle } from '../modules/cards/manage';
import { createCard, deleteCard, fundCard, withdrawFromCard } from '../modules/cards/service';
import { type Actor, type Actors, type DemoEvent, HOUR } from './demo-events';

interface NewCard {
  nickname: string;
  type: 'basic' | 'premium';
  purpose: CardPurpose;
  amount: number;
  limit?: number;
  control?: 'day' | 'week' | 'month' | 'lifetime';
}

/** Cards of every kind and state, with payments settled, reversed, declined and pending. */
export function cardEvents(a: Actors, now: Date): DemoEvent[] {
  const ids = new Map<string, string>();
  const events: DemoEvent[] = [];
  const day = (d: number, run: (ctx: AppContext) => Promise<unknown>) =>
    events.push({ hoursAgo: d * 24, run: async (ctx) => void (await run(ctx)) });
  const names: Record<string, [string, string]> = {
    ama: ['Ama', 'Mensah'],
    kofi: ['Kofi', 'Boateng'],
    efua: ['Efua', 'Owusu'],
  };

  const card = (who: 'ama' | 'kofi' | 'efua', d: number, c: NewCard) =>
    day(d, async (ctx) => {
      const [first, last] = names[who]!;
      const made = await createCard(ctx, a[who], {
        first_name: first,
        last_name: last,
        nickname: c.nickname,
        type: c.type,
        purpose: c.purpose as 'media',
        card_amount: c.amount,
        spending_limit: c.limit,
        spending_control: c.control,
      });
      ids.set(c.nickname, made.card.id);
    });

  const spend = (
    nickname: string,
    d: number,
    merchant: string,
    amount: number,
    country = 'GH',
    then?: 'settle' | 'reverse',
    mcc = '5999',
  ) => {
    let authId = '';
    day(d, async (ctx) => {
      const [row] = await ctx.db
        .select()
        .from(cards)
        .where(eq(cards.id, ids.get(nickname)!));
      authId = (
        await ctx.issuer.simulateAuthorization(row!.issuerToken, { amount, currency: 'USD', merchant, mcc, country })
      ).transactionId;
    });
    if (then) {
      events.push({
        hoursAgo: d * 24 - 20,
        run: async (ctx) => {
          const [auth] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, authId));
          if (auth?.status !== 'approved') return;
          await (then === 'settle'
            ? ctx.issuer.settle(auth.issuerReference!)
            : ctx.issuer.reverse(auth.issuerReference!));
        },
      });
    }
  };
  const on = (
    who: Actor,
    nickname: string,
    d: number,
    fn: (ctx: AppContext, me: Actor, id: string) => Promise<unknown>,
  ) => day(d, (ctx) => fn(ctx, who, ids.get(nickname)!));

  card('ama', 80, {
    nickname: 'Online shopping',
    type: 'premium',
    purpose: 'media',
    amount: 15_000,
    limit: 30_000,
    control: 'month',
  });
  spend('Online shopping', 70, 'Amazon.com', 4_520, 'US', 'settle');
  spend('Online shopping', 50, 'Jumia Ghana', 1_299, 'GH', 'reverse');
  spend('Online shopping', 20, 'Spotify', 1_099, 'SE', 'settle');
  spend('Online shopping', 5, 'AliExpress', 29_900, 'CN');
  spend('Online shopping', 0.5, 'Netflix', 1_549, 'US');
  card('ama', 40, { nickname: 'Streaming', type: 'basic', purpose: 'general', amount: 2_000 });
  spend('Streaming', 35, 'Netflix', 1_549, 'US', 'settle');
  spend('Streaming', 3, 'Apple Services', 999, 'US');
  card('ama', 25, { nickname: 'Subscriptions', type: 'premium', purpose: 'general', amount: 5_000 });
  on(a.ama, 'Subscriptions', 24, (ctx, me, id) => changeStatus(ctx, me, id, 'deactivate'));
  card('ama', 15, { nickname: 'One-off purchase', type: 'basic', purpose: 'media', amount: 1_000, limit: 1_000 });
  spend('One-off purchase', 14, 'Melcom Online', 650, 'GH', 'settle');
  on(a.ama, 'One-off purchase', 12, (ctx, me, id) => deleteCard(ctx, me, id));

  card('kofi', 70, { nickname: 'Fuel - Fleet 1', type: 'premium', purpose: 'general', amount: 80_000 });
  spend('Fuel - Fleet 1', 65, 'Shell Accra', 12_000, 'GH', 'settle');
  spend('Fuel - Fleet 1', 40, 'TotalEnergies Kumasi', 9_550, 'GH', 'settle');
  spend('Fuel - Fleet 1', 8, 'GOIL Tema', 6_025, 'GH', 'settle');
  // Tuesday to Thursday of one UTC week about two months ago, whatever today is, so the Uber
  // payment always goes over the weekly limit the two before it nearly used up.
  const wednesday = 56 + ((now.getUTCDay() - 3 + 7) % 7);
  card('kofi', 65, {
    nickname: 'Travel',
    type: 'premium',
    purpose: 'media',
    amount: 150_000,
    limit: 100_000,
    control: 'week',
  });
  spend('Travel', wednesday + 1, 'Emirates', 64_000, 'AE', 'settle');
  spend('Travel', wednesday, 'Marriott Lagos', 21_000, 'NG', 'settle');
  spend('Travel', wednesday - 1, 'Uber', 30_000, 'NG');
  on(a.admin, 'Travel', wednesday - 2, (ctx, _me, id) =>
    toggle(ctx, id, 'flag', 'Unusual spending pattern: several large payments abroad in one week'),
  );
  card('efua', 30, {
    nickname: 'Advertising',
    type: 'premium',
    purpose: 'media',
    amount: 30_000,
    limit: 50_000,
    control: 'month',
  });
  spend('Advertising', 28, 'Meta Ads', 12_000, 'IE', 'settle');
  on(a.admin, 'Advertising', 9, (ctx, _me, id) => toggle(ctx, id, 'suspend', 'Chargeback under investigation'));
  spend('Advertising', 7, 'Google Ads', 5_000, 'IE');
  card('kofi', 18, { nickname: 'Partner token', type: 'premium', purpose: 'tokencard', amount: 20_000 });
  card('efua', 10, { nickname: 'Office supplies', type: 'premium', purpose: 'general', amount: 10_000 });
  on(a.efua, 'Office supplies', 5, (ctx, me, id) => fundCard(ctx, me, { card: id, amount: 5_000 }));
  spend('Office supplies', 4, 'Game Stores Accra', 4_500, 'GH', 'settle');
  on(a.kofi, 'Office supplies', 2, (ctx, me, id) => withdrawFromCard(ctx, me, { card: id, amount: 2_000 }));

  // Everyday spending over the last months.
  const merchants = [
    'Shoprite Accra Mall',
    'Uber',
    'Bolt',
    'MTN Airtime',
    'Jumia Food',
    'Glovo',
    'KFC Osu',
    'Total Energies',
    'Palace Mall',
    'Amazon Web Services',
  ];
  for (let i = 0; i < 30; i++) {
    const daysAgo = 68 - i * 2.2;
    const card = i % 3 === 0 ? 'Fuel - Fleet 1' : i % 3 === 1 ? 'Office supplies' : 'Online shopping';
    if (card === 'Office supplies' && daysAgo > 9) continue;
    if (card === 'Online shopping' && daysAgo > 79) continue;
    spend(
      card,
      daysAgo,
      merchants[i % merchants.length]!,
      500 + ((i * 2741) % 40) * 125,
      'GH',
      i % 7 === 3 ? 'reverse' : 'settle',
    );
  }

  // Last month's maintenance fees, charged on the 1st as the scheduler does.
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1, 6));
  events.push({
    hoursAgo: (now.getTime() - first.getTime()) / HOUR,
    run: async (ctx) => void (await runJob(ctx, cardMaintenance, first.toISOString().slice(0, 7))),
  });
  return events;
}
