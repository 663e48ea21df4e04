import { describe, expect, it } from 'vitest';
import { signedCardAmount, txTag } from '@shared/ui/cards/format';

const usd = (kind: string, status: string, amount = '20.00') =>
  signedCardAmount({ kind, status, amount, currency: 'USD' } as Parameters<typeof signedCardAmount>[0]);
const tag = (kind: string, status: string) => txTag({ kind, status } as Parameters<typeof txTag>[0]).label;

describe("a payment's steps on the card screens", () => {
  it('sign money back on the card +, money taken -, an increment, a clearing and an ended payment no sign', () => {
    expect(usd('merchant_refund', 'completed')).toBe('+ USD 20.00');
    expect(usd('reversal', 'completed')).toBe('+ USD 20.00');
    expect(usd('expiry', 'completed')).toBe('+ USD 20.00');
    expect(usd('force_post', 'completed')).toBe('- USD 20.00');
    expect(usd('authorization', 'approved')).toBe('- USD 20.00');
    // the payment's row already carries the minus of what the clearing takes
    expect(usd('clearing', 'completed')).toBe('USD 20.00');
    expect(usd('increment', 'completed')).toBe('USD 20.00');
    expect(usd('authorization', 'expired')).toBe('USD 20.00');
    expect(usd('authorization', 'reversed')).toBe('USD 20.00');
  });

  it('tag a payment by its status and a step by what it did', () => {
    expect(tag('authorization', 'approved')).toBe('Pending');
    expect(tag('authorization', 'expired')).toBe('Expired');
    expect(tag('authorization', 'settled')).toBe('Settled');
    expect(tag('increment', 'completed')).toBe('Hold increased');
    expect(tag('increment', 'declined')).toBe('Declined');
    expect(tag('clearing', 'completed')).toBe('Cleared');
    expect(tag('reversal', 'completed')).toBe('Reversed');
    expect(tag('merchant_refund', 'completed')).toBe('Refund');
    expect(tag('force_post', 'completed')).toBe('Charge without authorisation');
    expect(tag('expiry', 'completed')).toBe('Expired');
    // the platform's own movements keep their status
    expect(tag('load', 'completed')).toBe('Completed');
  });
});
