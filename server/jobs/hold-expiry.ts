import { HOLD_EXPIRY_DAYS } from '@shared/contract';
import type { Job } from './runner';

/**
 * Holds pending longer than 7 days go back to their cards (the authorisation expires; a clearing
 * that comes later is still posted, from the available balance). Hourly; the issuer takes each
 * authorisation's expiry once, whichever instance runs it, so a run repeated does nothing more.
 */
export const holdExpiry: Job = {
  name: 'expire-holds',
  description: `Release the holds of authorisations pending for more than ${HOLD_EXPIRY_DAYS} days (hourly)`,
  periodOf: (d) => d.toISOString().slice(0, 13),
  async run(ctx) {
    const resumed = await ctx.issuer.resume();
    const expired = await ctx.issuer.expireHolds(HOLD_EXPIRY_DAYS);
    return { expired, resumed };
  },
};
