import { eq } from 'drizzle-orm';
import type { CardPurpose } from '@shared/contract';
import type { AppContext } from '../context';
import { cardTransactions, cards } from '../db/schema';
import { cardMaintenance } from '../jobs/card-jobs';
import { runJob } from '../jobs/runner';
import { setCardControls } from '../modules/cards/controls/service';
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

/** The merchants' category codes (ISO 18245), as their acquirers would send them. */
const MCC: Record<string, string> = {
  'Amazon.com': '5942',
  'Jumia Ghana': '5311',
  Spotify: '5815',
  AliExpress: '5999',
  Netflix: '4899',
  'Apple Services': '5818',
  'Melcom Online': '5311',
  'Shell Accra': '5541',
  'TotalEnergies Kumasi': '5541',
  'GOIL Tema': '5541',
  Emirates: '4511',
  'Marriott Lagos': '7011',
  Uber: '4121',
  'Meta Ads': '7311',
  'Google Ads': '7311',
  'Game Stores Accra': '5311',
  'Shoprite Accra Mall': '5411',
  Bolt: '4121',
  'MTN Airtime': '4814',
  'Jumia Food': '5814',
  Glovo: '5814',
  'KFC Osu': '5814',
  'Total Energies': '5541',
  'Palace Mall': '5311',
  'Amazon Web Services': '4816',
};

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
  ) => {
    const mcc = MCC[merchant] ?? '5999';
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
  const noControls = {
    allowed_categories: [],
    blocked_categories: [],
    allowed_countries: [],
    blocked_countries: [],
    per_transaction_limit: null,
    max_approvals: null,
  };
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

  // The lifecycle as merchants really run it (issue 32): a hotel adds to its hold and clears less,
  // a restaurant clears the tip too, a shop clears in two parts and refunds, a refund with no
  // payment, a charge with no authorisation, a car rental's hold left to expire and cleared late,
  // a casino the program blocks, and a frozen card a late charge takes into debt.
  const token = async (ctx: AppContext, nickname: string) => {
    const [row] = await ctx.db
      .select({ t: cards.issuerToken })
      .from(cards)
      .where(eq(cards.id, ids.get(nickname)!));
    return row!.t;
  };
  const refs = new Map<string, string>();
  const authorise = (
    nickname: string,
    d: number,
    name: string,
    merchant: string,
    amount: number,
    mcc: string,
    country: string,
  ) =>
    day(d, async (ctx) => {
      const made = await ctx.issuer.simulateAuthorization(await token(ctx, nickname), {
        amount,
        currency: 'USD',
        merchant,
        mcc,
        country,
      });
      const [auth] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, made.transactionId));
      if (auth?.status === 'approved') refs.set(name, auth.issuerReference!);
    });
  const step = (d: number, name: string, run: (ctx: AppContext, ref: string) => Promise<unknown>) =>
    day(d, async (ctx) => {
      const ref = refs.get(name);
      if (ref) await run(ctx, ref);
    });

  card('kofi', 34, { nickname: 'Business trips', type: 'premium', purpose: 'media', amount: 120_000 });
  on(a.kofi, 'Business trips', 33, (ctx, me, id) =>
    setCardControls(ctx, me, id, {
      ...noControls,
      blocked_categories: ['cash_withdrawal'],
      blocked_countries: ['NG'],
      per_transaction_limit: 60_000,
      max_approvals: { count: 30, interval: 'monthly' },
    }),
  );
  authorise('Business trips', 8, 'flight', 'Emirates', 85_000, '4511', 'AE');
  authorise('Business trips', 6, 'abuja', 'Transcorp Hilton Abuja', 30_000, '7011', 'NG');
  authorise('Business trips', 30, 'hotel', 'Kempinski Hotel Gold Coast City', 40_000, '7011', 'GH');
  step(29, 'hotel', (ctx, ref) => ctx.issuer.increment(ref, 12_000));
  step(27, 'hotel', (ctx, ref) => ctx.issuer.clear(ref, 47_500, true));
  authorise('Business trips', 16, 'dinner', 'Buka Restaurant Osu', 6_000, '5812', 'GH');
  step(15.5, 'dinner', (ctx, ref) => ctx.issuer.clear(ref, 6_900, true));
  authorise('Office supplies', 6, 'order', 'Jumia Ghana', 4_200, '5311', 'GH');
  step(5.5, 'order', (ctx, ref) => ctx.issuer.clear(ref, 2_700, false));
  step(4.5, 'order', (ctx, ref) => ctx.issuer.clear(ref, 1_500, true));
  day(3.5, async (ctx) => {
    const ref = refs.get('order');
    const msg = { amount: 900, merchant: 'Jumia Ghana', mcc: '5311', country: 'GH' };
    if (ref) await ctx.issuer.refund(await token(ctx, 'Office supplies'), msg, ref);
  });
  day(11, async (ctx) =>
    ctx.issuer.refund(
      await token(ctx, 'Fuel - Fleet 1'),
      { amount: 1_250, merchant: 'Bolt', mcc: '4121', country: 'GH' },
      null,
    ),
  );
  day(9, async (ctx) =>
    ctx.issuer.forcePost(await token(ctx, 'Fuel - Fleet 1'), {
      amount: 3_400,
      merchant: 'Shell Accra',
      mcc: '5541',
      country: 'GH',
    }),
  );
  authorise('Fuel - Fleet 1', 22, 'rental', 'Avis Accra Airport', 25_000, '7512', 'GH');
  day(14, (ctx) => ctx.issuer.expireHolds(7));
  step(12, 'rental', (ctx, ref) => ctx.issuer.clear(ref, 18_000, true));
  authorise('Business trips', 13, 'casino', 'Betway Ghana', 5_000, '7995', 'GH');
  day(20, async (ctx) =>
    ctx.issuer.forcePost(await token(ctx, 'Subscriptions'), {
      amount: 5_600,
      merchant: 'Adobe Creative Cloud',
      mcc: '5734',
      country: 'IE',
    }),
  );

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
