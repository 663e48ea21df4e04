import { reconcile } from '../modules/reconciliation/service';
import { performDue } from '../modules/cards/outbox';
import type { Job } from './runner';

/** Every hour: what the card issuer is still owed is tried, then every card's ledger balance is compared with the issuer's. */
export const reconciliation: Job = {
  name: 'reconciliation',
  description: "Compare every card's ledger balance with the card issuer and record the drift (hourly)",
  periodOf: (d) => d.toISOString().slice(0, 13),
  async run(ctx) {
    while ((await performDue(ctx)) > 0) {
      /* settle what is due first, so it does not show as drift */
    }
    const run = await reconcile(ctx, 'job');
    return { checked: run.checked, drift: run.drift.length };
  },
};
