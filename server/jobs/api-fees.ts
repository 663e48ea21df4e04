import { inArray, isNull } from 'drizzle-orm';
import { FEE_NAMES, computeFees } from '@shared/fees';
import { formatMoney } from '@shared/money';
import { apiClients, ledgerTransfers } from '../db/schema';
import { scheduleFor } from '../modules/fees/service';
import { PLATFORM, findWallet } from '../modules/ledger/accounts';
import { InsufficientFunds, post } from '../modules/ledger/post';
import type { Job } from './runner';

const isUniqueViolation = (e: unknown) =>
  typeof e === 'object' &&
  e !== null &&
  ((e as { code?: string }).code === '23505' || (e as { cause?: { code?: string } }).cause?.code === '23505');

/**
 * The monthly API fee (the schedule's api-monthly) for companies with active credentials. It runs
 * daily; each company is charged once per month (the month is in the ledger reference), so one
 * that could not pay on the 1st is charged when its wallet can.
 */
export const apiFees: Job = {
  name: 'api-fees',
  description: 'Charge the monthly API fee to companies with active API credentials (tries daily, once per month)',
  periodOf: (d) => d.toISOString().slice(0, 10),
  async run(ctx, period) {
    const month = period.slice(0, 7);
    const active = await ctx.db
      .selectDistinct({ companyId: apiClients.companyId })
      .from(apiClients)
      .where(isNull(apiClients.revokedAt));
    const references = active.map((a) => `API-${month}-${a.companyId}`);
    const done = references.length
      ? new Set(
          (
            await ctx.db
              .select({ r: ledgerTransfers.reference })
              .from(ledgerTransfers)
              .where(inArray(ledgerTransfers.reference, references))
          ).map((x) => x.r),
        )
      : new Set<string>();
    let charged = 0;
    let unpaid = 0;
    let total = 0;
    for (const { companyId } of active) {
      const reference = `API-${month}-${companyId}`;
      if (done.has(reference)) continue;
      const fees = computeFees(await scheduleFor(ctx.db, companyId), [FEE_NAMES.apiMonthly], 0);
      if (!fees.total) continue;
      const wallet = await findWallet(ctx.db, companyId);
      if (!wallet) continue;
      try {
        await ctx.db.transaction((tx) =>
          post(tx, {
            kind: 'api_fee',
            reference,
            description: `Monthly API fee ${month}`,
            meta: {
              company_id: companyId,
              month,
              fees_total: fees.total,
              fees_meta: {
                for: 'api-monthly',
                fees: { [FEE_NAMES.apiMonthly]: formatMoney(fees.total) },
                total: formatMoney(fees.total),
              },
            },
            at: ctx.now(),
            legs: [
              { accountId: wallet.id, amount: -fees.total },
              { accountId: PLATFORM.feeIncome, amount: fees.total },
            ],
          }),
        );
        charged++;
        total += fees.total;
      } catch (e) {
        if (isUniqueViolation(e)) continue; // an overlapping run charged this month meanwhile
        if (!(e instanceof InsufficientFunds)) throw e;
        unpaid++;
      }
    }
    return { month, charged, unpaid, total: formatMoney(total) };
  },
};
