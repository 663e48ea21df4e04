import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOPUP_STATES } from '@shared/contract';
import { MAX_AMOUNT_CENTS, formatMoney } from '@shared/money';
import { signedCardAmount } from '@shared/ui/cards/format';
import {
  CARD_TX_STATUS_NAMES,
  TOPUP_STATE_NAMES,
  cardBadges,
  cardStateName,
  centsText,
  moneyText,
  signedMoneyText,
} from '@shared/vocabulary';

describe('the one money format', () => {
  it('writes the currency first, thousands separated, two decimals', () => {
    expect(moneyText('1234.56', 'USDT')).toBe('USDT 1,234.56');
    expect(moneyText('20', 'USD')).toBe('USD 20.00');
    expect(moneyText('4655.00', 'GHS')).toBe('GHS 4,655.00');
    expect(moneyText('1,250.5', 'USDT')).toBe('USDT 1,250.50');
    expect(centsText(500, 'GHS')).toBe('GHS 5.00');
    expect(moneyText(null, 'USD')).toBe('-');
    expect(moneyText('', 'USD')).toBe('-');
  });

  it('signs money in and out one way, for wallets and cards alike', () => {
    expect(signedMoneyText('497.50', 'credit', 'USDT')).toBe('+ USDT 497.50');
    expect(signedMoneyText('45.50', 'debit', 'USDT')).toBe('- USDT 45.50');
    expect(signedCardAmount({ kind: 'load', status: 'completed', amount: '20.00', currency: 'USD' })).toBe(
      '+ USD 20.00',
    );
    expect(signedCardAmount({ kind: 'authorization', status: 'settled', amount: '1250.00', currency: 'USD' })).toBe(
      '- USD 1,250.00',
    );
    // a declined payment moved nothing: no sign
    expect(signedCardAmount({ kind: 'authorization', status: 'declined', amount: '5.00', currency: 'USD' })).toBe(
      'USD 5.00',
    );
  });

  it('reads back to the same cents for any amount (no float on the way)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }), (c) => {
        const text = moneyText(formatMoney(c), 'USDT');
        expect(text).toMatch(/^USDT \d{1,3}(,\d{3})*\.\d{2}$/);
        expect(Number(text.slice(5).replace(/,/g, '').replace('.', ''))).toBe(c);
        expect(centsText(c, 'USDT')).toBe(text);
      }),
    );
  });
});

describe('state names', () => {
  it('names every top-up state, a hash-provided one Processing for everyone', () => {
    for (const s of TOPUP_STATES) expect(TOPUP_STATE_NAMES[s]).toBeTruthy();
    expect(TOPUP_STATE_NAMES['Hash-provided']).toBe('Processing');
    expect(CARD_TX_STATUS_NAMES.approved).toBe('Pending');
  });

  it('never shows a flagged or suspended card as a green Active', () => {
    expect(cardBadges({ state: 'Active' })).toEqual([{ text: 'Active', tone: 'ok' }]);
    expect(cardBadges({ state: 'Active', flagged: true })).toEqual([
      { text: 'Active', tone: 'muted' },
      { text: 'Flagged', tone: 'bad' },
    ]);
    expect(cardBadges({ state: 'Deactivated', suspended: true })).toEqual([
      { text: 'Deactivated', tone: 'bad' },
      { text: 'Suspended', tone: 'warn' },
    ]);
    expect(cardStateName({ state: 'Active', is_deleted: true })).toBe('Deleted');
    expect(cardBadges({ state: 'Active', is_deleted: true, flagged: true })).toEqual([
      { text: 'Deleted', tone: 'bad' },
    ]);
  });
});
