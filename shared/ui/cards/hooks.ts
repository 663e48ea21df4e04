import { useQuery } from '@tanstack/react-query';
import { api, apiData, type Query } from '../../api/client';
import type { ApiCard, ApiCardDetail, ApiFee, Paged } from '../../contract';
import { type FeeRule, feeRuleOf } from '../../fees';
import { useSession } from '../useSession';
import { CARD_KEYS } from './keys';

/**
 * Whose cards a screen shows. Customers: their own wallet's (the individual or the company list).
 * Staff: every card, narrowed by `params` (e.g. { company_id } or { individual_id }).
 */
export interface CardScope {
  staff?: boolean;
  params?: Query;
}

/** The list filters of the card screens (customer-portal §2, 'Search Cards'). */
export interface CardListFilters {
  start_date?: string;
  end_date?: string;
  for?: 'company' | 'individual';
  purpose?: 'media' | 'general' | 'tokencard';
  type?: 'basic' | 'premium';
  is_active?: 'true' | 'false';
  search?: string;
}

/** The signed-in customer's card list: by user id for an Individual, by company id otherwise. */
export function useOwnCardSource() {
  const session = useSession();
  if (!session?.user.wallet_id) return null;
  const kind = session.user.role === 'Individual' ? ('individual' as const) : ('company' as const);
  return { kind, walletId: session.user.wallet_id };
}

/** Live cards of the scope, newest first (staff: up to 100 of the narrowed list). */
export function useCardList(scope: CardScope, filters: CardListFilters = {}, enabled = true) {
  const own = useOwnCardSource();
  const staff = !!scope.staff;
  return useQuery({
    queryKey: CARD_KEYS.list(staff ? { staff, params: scope.params ?? null } : own, filters),
    queryFn: async (): Promise<ApiCard[]> => {
      if (staff) {
        const r = await api<Paged<ApiCard>>('GET', '/cards', {
          query: { ...scope.params, ...filters, per_page: 100 },
          silent: true,
        });
        return r.data;
      }
      const rows = await apiData<ApiCard[]>('GET', `/cards/${own!.kind}/${own!.walletId}`, {
        query: { ...filters },
        silent: true,
      });
      // The customer list endpoint does not narrow by owner type ('for'): all of a customer's cards
      // are of their own kind, so 'for' keeps them all or none.
      return filters.for && filters.for !== own!.kind ? [] : rows;
    },
    enabled: enabled && (staff || !!own),
    // Cards also come from elsewhere (a colleague, staff, the API): a screen that opens reads the list again,
    // showing what it had meanwhile. The dashboard's first-card invitation reads it seconds before, too.
    refetchOnMount: 'always',
  });
}

export function useCardDetail(cardId: string | undefined) {
  return useQuery({
    queryKey: CARD_KEYS.detail(cardId ?? ''),
    queryFn: () => apiData<ApiCardDetail>('GET', `/cards/${cardId}`, { silent: true }),
    enabled: !!cardId,
  });
}

/**
 * The fee schedule that applies to a card's owner, for previews with the one fee function.
 * Customers read their own (GET /fees?for=company&for_id= or for=default). Staff read the
 * defaults and the owner's overrides (a company's row replaces the default of the same name).
 */
export function useCardFeeSchedule(opts: { staff?: boolean; walletId?: string | null }, enabled = true) {
  const session = useSession();
  const companyId = session?.user.company_id ?? null;
  const staff = !!opts.staff;
  return useQuery({
    queryKey: CARD_KEYS.fees(staff ? { staff, walletId: opts.walletId ?? null } : { companyId }),
    queryFn: async (): Promise<FeeRule[]> => {
      if (!staff) {
        const rows = await apiData<ApiFee[]>('GET', '/fees', {
          query: companyId ? { for: 'company', for_id: companyId } : { for: 'default' },
          silent: true,
        });
        return rows.map(feeRuleOf);
      }
      const [defaults, own] = await Promise.all([
        api<Paged<ApiFee>>('GET', '/fees', { query: { for: 'default', per_page: 100 }, silent: true }),
        opts.walletId
          ? api<Paged<ApiFee>>('GET', '/fees', {
              query: { for: 'company', for_id: opts.walletId, per_page: 100 },
              silent: true,
            })
          : Promise.resolve({ data: [] as ApiFee[] }),
      ]);
      const byName = new Map<string, ApiFee>();
      for (const f of defaults.data) byName.set(f.name, f);
      for (const f of own.data) byName.set(f.name, f);
      return [...byName.values()].map(feeRuleOf);
    },
    enabled: enabled && !!session,
    staleTime: 60_000,
  });
}
