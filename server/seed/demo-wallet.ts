import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { momoSettings } from '../db/schema';
import { transfer } from '../modules/wallet/transfer';
import { confirmTopup, createTopup, decideTopup, markMomoProcessed } from '../modules/wallet/service';
import { type DemoEvent, type Actors, HOUR } from './demo-events';
import { DEMO_IDS } from './ids';

export async function seedMomoSettings(tx: Tx) {
  await tx
    .update(momoSettings)
    .set({ entityUsers: [DEMO_IDS.momoAgent], alertEmails: ['momo-alerts@cardwallet.example'] })
    .where(eq(momoSettings.id, 1));
}

type Final = 'Pending' | 'Hash-provided' | 'MoMo processed' | 'Approved' | 'Denied';

const hash = (seed: number) =>
  Array.from({ length: 64 }, (_, i) => '0123456789abcdef'[(seed * 7 + i * 13 + ((seed * i) % 11)) % 16]).join('');

/** Top-ups of both methods in every state, and transfers, as timed events. */
export function walletEvents(a: Actors): DemoEvent[] {
  const events: DemoEvent[] = [];
  let n = 0;
  const topup = (
    who: keyof Actors,
    method: 'tron' | 'momo',
    cents: number,
    daysAgo: number,
    final: Final,
    reason?: string,
  ) => {
    const seed = ++n;
    let reference = '';
    let code = '';
    let id = '';
    const t0 = daysAgo * 24;
    events.push({
      hoursAgo: t0,
      run: async (ctx) => {
        const r = await createTopup(ctx, a[who], { wallet_id: a[who].walletId, amount: cents, method });
        reference = r.reference;
        code = r.code;
      },
    });
    if (final === 'Pending') return;
    events.push({
      hoursAgo: t0 - 0.5,
      run: async (ctx) => {
        await confirmTopup(
          ctx,
          a[who],
          method === 'tron' ? { reference, transaction_hash: hash(seed) } : { reference, code },
        );
        const { findTopupByReference } = await import('../modules/wallet/queries');
        id = (await findTopupByReference(ctx.db, reference))!.id;
      },
    });
    if (
      method === 'momo' &&
      final !== 'Hash-provided' &&
      !(final === 'Denied' && reason?.includes('No mobile-money'))
    ) {
      events.push({ hoursAgo: t0 - 1, run: (ctx) => markMomoProcessed(ctx, a.agent, id).then(() => undefined) });
    }
    if (final === 'Approved' || final === 'Denied') {
      events.push({
        hoursAgo: t0 - 2,
        run: (ctx) =>
          decideTopup(ctx, a.admin, {
            topup_id: id,
            action: final === 'Approved' ? 'approve' : 'deny',
            reason,
            // the demo hashes are not on the sandbox chain: staff say why they approve
            ...(final === 'Approved' && method === 'tron' ? { note: 'Checked on a Tron explorer: paid.' } : {}),
          }).then(() => undefined),
      });
    }
  };
  topup('kofi', 'tron', 500_000, 85, 'Approved');
  topup('ama', 'tron', 50_000, 84, 'Approved');
  topup('efua', 'momo', 120_000, 45, 'Approved');
  topup('ama', 'momo', 20_000, 30, 'Approved');
  topup('ama', 'momo', 8_000, 10, 'Denied', 'No mobile-money payment with this reference arrived within 24 hours.');
  topup('kofi', 'tron', 75_000, 6, 'Denied', 'The transaction hash belongs to a transfer to another address.');
  topup('kofi', 'momo', 100_000, 2, 'MoMo processed');
  topup('ama', 'tron', 30_000, 1, 'Hash-provided');
  topup('ama', 'momo', 15_000, 0.4, 'Hash-provided');
  topup('efua', 'momo', 25_000, 0.3, 'Pending');
  topup('ama', 'tron', 15_000, 0.2, 'Pending');

  // Steady weekly funding of the company wallet, so the charts show months of activity.
  for (let week = 12; week >= 1; week--) {
    topup(
      week % 3 === 0 ? 'efua' : 'kofi',
      week % 2 ? 'tron' : 'momo',
      20_000 + ((week * 7919) % 9) * 5_000,
      week * 7 - 1.5,
      'Approved',
    );
  }

  const send = (who: keyof Actors, to: keyof Actors, cents: number, daysAgo: number, note?: string) =>
    events.push({
      hoursAgo: daysAgo * 24,
      run: (ctx) =>
        transfer(ctx, a[who], { wallet_id: a[to].walletId, amount: cents, reference: note }).then(() => undefined),
    });
  send('kofi', 'ama', 12_000, 20, 'Reimbursement: Kumasi site visit');
  send('ama', 'kofi', 4_550, 5, 'Invoice 1042');
  send('efua', 'ama', 2_500, 3);
  void HOUR;
  return events;
}
