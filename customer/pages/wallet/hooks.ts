import { useQuery } from '@tanstack/react-query';
import { apiData } from '@shared/api/client';
import type { ApiFee, MomoDetails } from '@shared/contract';
import { FEES_FOR, type FeeBreakdown, computeFees, feeRuleOf, hundredthsOf, momoAmountToSend } from '@shared/fees';
import { useSession } from '@shared/ui/useSession';

/** The fee schedule that applies to the signed-in customer (their company's, or the defaults). */
function useFeeSchedule(enabled = true) {
  const session = useSession();
  const companyId = session?.user.company_id ?? null;
  return useQuery({
    queryKey: ['fee-schedule', companyId],
    queryFn: async () => {
      const rows = await apiData<ApiFee[]>('GET', '/fees', {
        query: companyId ? { for: 'company', for_id: companyId } : { for: 'default' },
        silent: true,
      });
      return rows.map(feeRuleOf);
    },
    enabled: enabled && !!session,
    staleTime: 60_000,
  });
}

/** The Tron top-up fee on an amount, by the one fee function; null until the schedule is known. */
export function useTronFee(amountCents: number | null, enabled = true): FeeBreakdown | null {
  const schedule = useFeeSchedule(enabled);
  if (!schedule.data || amountCents === null) return null;
  return computeFees(schedule.data, FEES_FOR.tronTopup(), amountCents);
}

export function useMomoDetails(enabled = true) {
  return useQuery({
    queryKey: ['momo-details'],
    queryFn: () => apiData<MomoDetails>('GET', '/param/momo-details', { silent: true }),
    enabled,
    staleTime: 60_000,
  });
}

/** GHS pesewas to send for an amount of USDT cents, by the shared momo formula. */
export function momoToSend(details: MomoDetails, amountCents: number): number {
  return momoAmountToSend(details.rate, hundredthsOf(details.flat_fee), amountCents);
}
