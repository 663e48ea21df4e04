import { App } from 'antd';
import type { ApiCard } from '../../contract';
import { type FeeRule, computeFees } from '../../fees';
import { centsOf } from '../../money';
import { typedCents, usdtCents } from '../wallet/format';
import { usdCents } from './format';

export type CardMoneyMove = 'fund' | 'withdraw';

/**
 * The sentence a card movement is confirmed with, from the one fee function the server charges by:
 * "Fund card •••• 1234 with USD 50.00 — fee USD 1.50, total USDT 51.50" (the wallet pays amount + fees),
 * "Withdraw USD 50.00 from card •••• 1234 — fee USD 1.50, USDT 48.50 to the master wallet".
 */
export function cardMoneySentence(kind: CardMoneyMove, last4: string, cents: number, feeCents: number): string {
  const card = `card •••• ${last4}`;
  const fee = feeCents ? `fee ${usdCents(feeCents)}` : 'no fee';
  return kind === 'fund'
    ? `Fund ${card} with ${usdCents(cents)} — ${fee}, total ${usdtCents(cents + feeCents)}`
    : `Withdraw ${usdCents(cents)} from ${card} — ${fee}, ${usdtCents(cents - feeCents)} to the master wallet`;
}

/** Withdrawals take at most what the card holds: refused on the field, before any fee is previewed. */
export function withinCardBalance(card: Pick<ApiCard, 'balance'> | undefined, cents: number | null): boolean {
  return !card || cents === null || cents <= centsOf(card.balance);
}

export const overBalanceRule = (card: Pick<ApiCard, 'balance'> | undefined, usdText: string) => ({
  validator: (_: unknown, v: unknown) =>
    withinCardBalance(card, typedCents(v))
      ? Promise.resolve()
      : Promise.reject(new Error(`The card holds ${usdText}: enter at most that amount`)),
});

/**
 * Asks before card money moves (the sentence above, Confirm or Back; Back leaves the form as it was)
 * and runs `move` only on Confirm. The fees must be known: without the schedule nothing is asked.
 */
export function useConfirmCardMoney() {
  const { modal, message } = App.useApp();
  return (p: {
    kind: CardMoneyMove;
    card: Pick<ApiCard, 'last4'>;
    cents: number;
    schedule: FeeRule[] | undefined;
    names: readonly string[];
    move(): Promise<unknown>;
    /** says on the amount field why nothing is asked: a withdrawal the fees would eat whole */
    refuse(text: string): void;
  }) => {
    if (!p.schedule) {
      message.error('The fees could not be loaded yet. Please try again.', 4);
      return;
    }
    const fees = computeFees(p.schedule, p.names, p.cents);
    // The server refuses it too: a confirmation must not offer "USDT 0.00 to the master wallet".
    if (p.kind === 'withdraw' && p.cents <= fees.total) {
      p.refuse(`The amount must be more than the fees (${usdCents(fees.total)}).`);
      return;
    }
    modal.confirm({
      title: p.kind === 'fund' ? 'Confirm card funding' : 'Confirm card withdrawal',
      content: (
        <span data-testid="card-money-confirm">{cardMoneySentence(p.kind, p.card.last4, p.cents, fees.total)}</span>
      ),
      okText: 'Confirm',
      cancelText: 'Back',
      onOk: () => p.move(),
    });
  };
}
