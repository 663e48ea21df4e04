import type { AppContext, AuthUser } from '../context';
import { type Actor, type Actors, HOUR } from './demo-events';
import { cardEvents } from './demo-cards';
import { disputeEvents } from './demo-disputes';
import { walletEvents } from './demo-wallet';
import { DEMO_IDS } from './ids';

const actor = (id: string, role: AuthUser['role'], companyId: string | null, walletId: string): Actor => ({
  id,
  email: '',
  role,
  companyId,
  sessionId: 'seed',
  via: 'session',
  walletId,
});

/**
 * Months of demo activity, replayed in time order through the real services on a clock set back
 * in time: every balance, fee and ledger entry is what the product itself produces.
 */
export async function seedDemoActivity(ctx: AppContext, clock: { set(d: Date): void }, now: Date) {
  const a: Actors = {
    ama: actor(DEMO_IDS.individual, 'Individual', null, DEMO_IDS.individual),
    kofi: actor(DEMO_IDS.companyAdmin, 'Company-Admin', DEMO_IDS.company, DEMO_IDS.company),
    efua: actor(DEMO_IDS.companyUser, 'Company-User', DEMO_IDS.company, DEMO_IDS.company),
    agent: actor(DEMO_IDS.momoAgent, 'Individual', null, DEMO_IDS.momoAgent),
    admin: actor(DEMO_IDS.admin, 'Admin', null, ''),
  };
  const events = [...walletEvents(a), ...cardEvents(a, now), ...disputeEvents(a)].sort(
    (x, y) => y.hoursAgo - x.hoursAgo,
  );
  for (const e of events) {
    clock.set(new Date(now.getTime() - e.hoursAgo * HOUR));
    await e.run(ctx);
  }
  clock.set(now);
}
