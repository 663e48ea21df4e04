import type { ApiCard, CardPurpose, CardType, SpendingControl } from '@shared/contract';
import { brandOf } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { cards } from '../../db/schema';

export type CardRow = typeof cards.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A card as lists and details show it; the full number is added only for its owner. */
export function toApiCard(
  c: CardRow,
  b: { available: number; held: number },
  extra: {
    owner_name?: string;
    owner_type?: 'Individual' | 'Company';
    created_by?: string;
    created_by_id?: string;
    staff?: boolean;
  } = {},
): ApiCard {
  const { staff, ...rest } = extra;
  return {
    id: c.id,
    wallet_id: c.walletId,
    cardholder: `${c.firstName} ${c.lastName}`,
    first_name: c.firstName,
    last_name: c.lastName,
    nickname: c.nickname,
    purpose: c.purpose as CardPurpose,
    brand: brandOf(c.purpose),
    type: c.type as CardType,
    card_number: c.maskedNumber,
    masked_number: c.maskedNumber,
    last4: c.last4,
    ...(staff ? { card_token: c.issuerToken } : {}),
    balance: formatMoney(b.available),
    available: formatMoney(b.available),
    ledger: formatMoney(b.available + b.held),
    spending_limit: c.spendingLimit == null ? null : formatMoney(c.spendingLimit),
    spending_control: (c.spendingControl as SpendingControl | null) ?? null,
    additional_spending_limit: formatMoney(c.additionalSpendingLimit),
    state: c.deletedAt ? 'Deactivated' : (c.state as ApiCard['state']),
    is_deleted: !!c.deletedAt,
    end_reason: c.endReason,
    flagged: c.flagged,
    flag_reason: c.flagReason,
    flagged_at: iso(c.flaggedAt),
    suspended: c.suspended,
    suspend_reason: c.suspendReason,
    suspend_at: iso(c.suspendAt),
    unsuspend_at: iso(c.unsuspendAt),
    ...rest,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

export const maskPan = (last4: string) => `**** **** **** ${last4}`;
