import { formatDecimal, unitsOf } from './decimal';
import { divRoundHalfUp } from './money';

/**
 * The one fee function: every preview in both apps and every charge on the server call it,
 * so what a person is shown is exactly what is charged.
 */

export type FeeType = 'percentage' | 'fixed';

export interface FeeRule {
  name: string;
  type: FeeType;
  /** hundredths: 150 = 1.50 % for a percentage, 1.50 USD for a fixed fee */
  value: number;
  status: 'Active' | 'Inactive';
}

interface FeeLine {
  name: string;
  type: FeeType;
  value: number;
  amount: number;
}

export interface FeeBreakdown {
  lines: FeeLine[];
  total: number;
}

export type CardPurpose = 'media' | 'general' | 'tokencard';

export const FEE_NAMES = {
  issuance: (p: CardPurpose) => `card-issuance-${p}`,
  load: (p: CardPurpose) => `card-load-${p}`,
  withdraw: (p: CardPurpose) => `card-withdraw-${p}`,
  flat: 'flat-fee',
  tronTopup: 'wallet-topup-tron',
  maintenance: 'card-maintenance',
  apiMonthly: 'api-monthly',
} as const;

/** Which fees apply to each kind of movement. */
export const FEES_FOR = {
  cardCreation: (p: CardPurpose) => [FEE_NAMES.issuance(p), FEE_NAMES.load(p), FEE_NAMES.flat],
  cardFunding: (p: CardPurpose) => [FEE_NAMES.load(p), FEE_NAMES.flat],
  cardWithdrawal: (p: CardPurpose) => [FEE_NAMES.withdraw(p), FEE_NAMES.flat],
  tronTopup: () => [FEE_NAMES.tronTopup],
} as const;

/** A percentage fee is value/100 × amount rounded half up to the cent; a fixed fee is its value. */
export function feeAmount(rule: Pick<FeeRule, 'type' | 'value'>, amountCents: number): number {
  if (rule.type === 'fixed') return rule.value;
  return Number(divRoundHalfUp(BigInt(amountCents) * BigInt(rule.value), 10_000n));
}

/** The applicable fees by name, in the order given; inactive or missing fees are not charged. */
export function computeFees(schedule: FeeRule[], names: readonly string[], amountCents: number): FeeBreakdown {
  const lines: FeeLine[] = [];
  for (const name of names) {
    const rule = schedule.find((r) => r.name === name);
    if (rule?.status !== 'Active') continue;
    lines.push({ name, type: rule.type, value: rule.value, amount: feeAmount(rule, amountCents) });
  }
  return { lines, total: lines.reduce((s, l) => s + l.amount, 0) };
}

/** Amount to send by mobile money, in pesewas: rate × amount + flat fee, rounded half up. */
export function momoAmountToSend(rate: string, flatFeePesewas: number, amountCents: number): number {
  const rate1e4 = unitsOf(rate, { scale: 4, max: Number.MAX_SAFE_INTEGER, allowZero: true });
  return Number(divRoundHalfUp(BigInt(amountCents) * BigInt(rate1e4), 10_000n)) + flatFeePesewas;
}

/** "1.50" ↔ 150 for fee values and rates shown to people. */
export function hundredthsToString(v: number): string {
  return formatDecimal(v, 2);
}

/** A fee value or flat fee as the API writes it ("1.50") → 150; throws on anything else (trusted input). */
export function hundredthsOf(text: string): number {
  return unitsOf(text, { scale: 2, max: Number.MAX_SAFE_INTEGER, allowZero: true });
}

/** A fee row as the API answers it → the rule the fee function reads. */
export const feeRuleOf = (f: { name: string; type: FeeType; value: string; state: FeeRule['status'] }): FeeRule => ({
  name: f.name,
  type: f.type,
  value: hundredthsOf(f.value),
  status: f.state,
});
