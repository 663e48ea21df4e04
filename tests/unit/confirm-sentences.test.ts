import { describe, expect, it } from 'vitest';
import { shortName } from '../../server/modules/wallet/recipient';
import { cardMoneySentence, withinCardBalance } from '../../shared/ui/cards/confirmCardMoney';

describe('the names and sentences money is confirmed with', () => {
  it('shortens a person to first name and last initial', () => {
    expect(shortName('Yaw', 'Tetteh')).toBe('Yaw T.');
    expect(shortName(' Ama ', 'owusu-Ansah')).toBe('Ama O.');
    expect(shortName('Kofi', '')).toBe('Kofi');
    expect(shortName('Efua', 'Ødegaard')).toBe('Efua Ø.');
  });

  it('says a card funding and a withdrawal with fees and totals, in cents', () => {
    expect(cardMoneySentence('fund', '1234', 5_000, 150)).toBe(
      'Fund card •••• 1234 with USD 50.00 — fee USD 1.50, total USDT 51.50',
    );
    expect(cardMoneySentence('withdraw', '1234', 123_456, 1_235)).toBe(
      'Withdraw USD 1,234.56 from card •••• 1234 — fee USD 12.35, USDT 1,222.21 to the master wallet',
    );
    expect(cardMoneySentence('fund', '9876', 300, 0)).toBe(
      'Fund card •••• 9876 with USD 3.00 — no fee, total USDT 3.00',
    );
  });

  it('lets a withdrawal take at most the card balance', () => {
    expect(withinCardBalance({ balance: '20.00' }, 2_000)).toBe(true);
    expect(withinCardBalance({ balance: '20.00' }, 2_001)).toBe(false);
    expect(withinCardBalance({ balance: '1,250.00' }, 125_000)).toBe(true);
    expect(withinCardBalance(undefined, 2_001)).toBe(true);
  });
});
