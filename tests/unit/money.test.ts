import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_AMOUNT_CENTS,
  centsOf,
  displayMoney,
  divRoundHalfUp,
  formatMoney,
  moneyField,
  parseMoney,
} from '@shared/money';

const cents = fc.integer({ min: 1, max: MAX_AMOUNT_CENTS });
const centsOrZero = fc.integer({ min: 0, max: MAX_AMOUNT_CENTS });
const parsed = (input: unknown, opts?: Parameters<typeof parseMoney>[1]) => parseMoney(input, opts);
const refused = (input: unknown, opts?: Parameters<typeof parseMoney>[1]) => {
  const r = parseMoney(input, opts);
  return r.ok ? null : r.error;
};

/** "1234567.89" → "1,234,567.89", written independently of displayMoney. */
function withCommas(c: number): string {
  const whole = BigInt(Math.floor(c / 100)).toLocaleString('en-US');
  return `${whole}.${String(c % 100).padStart(2, '0')}`;
}

describe('parseMoney never loses or invents a cent', () => {
  it('round-trips every amount through formatMoney', () => {
    fc.assert(
      fc.property(centsOrZero, (c) => {
        expect(parsed(formatMoney(c), { allowZero: true })).toEqual({ ok: true, cents: c });
      }),
    );
  });

  it('reads thousands commas as the same amount', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(parsed(displayMoney(c))).toEqual({ ok: true, cents: c });
        expect(parsed(withCommas(c))).toEqual({ ok: true, cents: c });
      }),
    );
    expect(parsed('1,250.5')).toEqual({ ok: true, cents: 125050 });
    expect(parsed(' 1,000,000 ')).toEqual({ ok: true, cents: 100_000_000 });
  });

  it('reads JSON numbers such as 12.5 exactly', () => {
    expect(parsed(12.5)).toEqual({ ok: true, cents: 1250 });
    expect(parsed(0.1)).toEqual({ ok: true, cents: 10 });
    expect(parsed(1000)).toEqual({ ok: true, cents: 100_000 });
    expect(parsed(19.99)).toEqual({ ok: true, cents: 1999 });
    fc.assert(
      fc.property(cents, (c) => {
        expect(parsed(c / 100)).toEqual({ ok: true, cents: c });
      }),
    );
  });

  it('reads one decimal and no decimals as whole cents, and ignores leading zeros', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 5 }),
        (w, d, zeros) => {
          const lead = '0'.repeat(zeros);
          expect(parsed(`${lead}${w}.${d}`, { allowZero: true })).toEqual({ ok: true, cents: w * 100 + d * 10 });
          expect(parsed(`${lead}${w}`, { allowZero: true })).toEqual({ ok: true, cents: w * 100 });
        },
      ),
    );
  });
});

describe('parseMoney refuses', () => {
  it('negative amounts, as strings and as numbers', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(refused(`-${formatMoney(c)}`)).toBe('The amount must be more than zero');
        expect(refused(-c / 100)).toBe('The amount must be more than zero');
        expect(refused(` -${displayMoney(c)}`, { allowZero: true })).toBe('The amount must be more than zero');
      }),
    );
  });

  it('zero unless allowZero', () => {
    for (const zero of ['0', '0.00', '0.0', '000', '0,000.00', 0, -0]) {
      expect(refused(zero)).toBe('The amount must be more than zero');
      expect(parsed(zero, { allowZero: true })).toEqual({ ok: true, cents: 0 });
    }
  });

  it('three or more decimals, even when they are zeros', () => {
    fc.assert(
      fc.property(centsOrZero, fc.stringMatching(/^[0-9]{1,6}$/), (c, extra) => {
        expect(refused(`${formatMoney(c)}${extra}`, { allowZero: true })).toBe('Use at most 2 decimal places');
      }),
    );
    expect(refused('1.005')).toBe('Use at most 2 decimal places');
    expect(refused('1.000')).toBe('Use at most 2 decimal places');
    expect(refused(1.005)).toBe('Use at most 2 decimal places');
    expect(refused(0.1 + 0.2)).toBe('Use at most 2 decimal places');
  });

  it('text, signs, spaces inside, exponent notation and non-finite numbers', () => {
    const examples: unknown[] = [
      'ten',
      'abc',
      '12abc',
      'USD 5',
      '5 USD',
      '$5',
      '+5',
      '.5',
      '5.',
      '1 000',
      '1.2.3',
      '0x10',
      'Infinity',
      'NaN',
      '1e3',
      '1E3',
      '1e30',
      '2.5e-1',
      '1e+21',
      NaN,
      Infinity,
      -Infinity,
      1e21,
      1e-7,
      1e30,
    ];
    for (const x of examples) expect(refused(x), String(x)).toBe('Enter an amount such as 25.00');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.integer({ min: -30, max: 30 }),
        fc.constantFrom('e', 'E', 'e+'),
        (m, k, e) => {
          expect(refused(`${m}${e}${k}`)).not.toBeNull();
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (s) => {
        fc.pre(/[^\d.,\s-]/.test(s));
        expect(parsed(s).ok).toBe(false);
      }),
    );
  });

  it('nothing at all', () => {
    for (const x of ['', '   ', ',', undefined, null, true, {}, []])
      expect(parsed(x).ok, JSON.stringify(x)).toBe(false);
    expect(refused('')).toBe('Amount is required');
    expect(refused(null)).toBe('Amount is required');
  });

  it('anything above the maximum, or above a lower max when given', () => {
    expect(parsed(formatMoney(MAX_AMOUNT_CENTS))).toEqual({ ok: true, cents: MAX_AMOUNT_CENTS });
    fc.assert(
      fc.property(fc.integer({ min: MAX_AMOUNT_CENTS + 1, max: Number.MAX_SAFE_INTEGER }), (c) => {
        expect(refused(formatMoney(c))).toBe('The amount is too large');
        expect(refused(displayMoney(c))).toBe('The amount is too large');
      }),
    );
    expect(refused('99999999999999')).toBe('The amount is too large');
    expect(refused('9'.repeat(40))).toBe('The amount is too large');
    expect(refused(MAX_AMOUNT_CENTS / 100 + 0.01)).toBe('The amount is too large');
    fc.assert(
      fc.property(cents, cents, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(parsed(formatMoney(lo), { max: hi }).ok).toBe(true);
        if (hi > lo) expect(refused(formatMoney(hi), { max: lo })).toBe('The amount is too large');
      }),
    );
  });
});

describe('formatting', () => {
  it('formatMoney writes exactly two decimals, with a sign for negatives', () => {
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatMoney(125050)).toBe('1250.50');
    expect(formatMoney(-1)).toBe('-0.01');
    fc.assert(
      fc.property(fc.integer({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS }), (c) => {
        expect(formatMoney(c)).toMatch(/^-?\d+\.\d{2}$/);
      }),
    );
  });

  it('displayMoney puts a comma every three digits of the whole part and nowhere else', () => {
    expect(displayMoney(0)).toBe('0.00');
    expect(displayMoney(99999)).toBe('999.99');
    expect(displayMoney(100000)).toBe('1,000.00');
    expect(displayMoney(123456789)).toBe('1,234,567.89');
    expect(displayMoney(-100000000)).toBe('-1,000,000.00');
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (c) => {
        const shown = displayMoney(c);
        expect(shown).toBe(`${c < 0 ? '-' : ''}${withCommas(Math.abs(c))}`);
        expect(shown.replace(/,/g, '')).toBe(formatMoney(c));
      }),
    );
  });

  it('centsOf reads back what formatMoney writes, negatives included', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (c) => {
        expect(centsOf(formatMoney(c))).toBe(c);
      }),
    );
    expect(centsOf('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
    expect(centsOf('-90071992547409.91')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(() => centsOf('90071992547409.92')).toThrow();
    expect(() => centsOf('ten')).toThrow();
    expect(() => centsOf('1.005')).toThrow();
  });
});

describe('moneyField', () => {
  it('turns accepted input into cents and refuses the rest with the message people see', () => {
    expect(moneyField().parse('1,000.50')).toBe(100050);
    expect(moneyField().parse(12.5)).toBe(1250);
    expect(moneyField('Give an amount').safeParse(undefined).error?.issues[0]?.message).toBe('Give an amount');
    expect(moneyField().safeParse('').error?.issues[0]?.message).toBe('Amount is required');
    expect(moneyField().safeParse(null).error?.issues[0]?.message).toBe('Amount is required');
    expect(moneyField().safeParse('0').error?.issues[0]?.message).toBe('The amount must be more than zero');
    expect(moneyField('x', { allowZero: true }).parse('0')).toBe(0);
    expect(moneyField().safeParse('1.005').error?.issues[0]?.message).toBe('Use at most 2 decimal places');
  });
});

describe('divRoundHalfUp', () => {
  /** Reference: the exact quotient and remainder, rounded up when the remainder is half or more. */
  const reference = (a: bigint, b: bigint) => {
    const q = a / b;
    const r = a % b;
    return 2n * r >= b ? q + 1n : q;
  };

  it('matches the reference for any non-negative numerator and positive divisor', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 15n }), (a, b) => {
        const got = divRoundHalfUp(a, b);
        expect(got).toBe(reference(a, b));
        // and it is the nearest integer, ties going up: |got·b − a| ≤ b/2, with equality only above
        const diff = got * b - a;
        expect(2n * (diff < 0n ? -diff : diff) <= b).toBe(true);
        if (2n * diff === -b) throw new Error('a tie was rounded down');
      }),
    );
  });

  it('rounds exact halves up', () => {
    expect(divRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divRoundHalfUp(15n, 10n)).toBe(2n);
    expect(divRoundHalfUp(25n, 10n)).toBe(3n);
    expect(divRoundHalfUp(0n, 7n)).toBe(0n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (q, h) => {
        expect(divRoundHalfUp(q * 2n * h + h, 2n * h)).toBe(q + 1n);
      }),
    );
  });
});
