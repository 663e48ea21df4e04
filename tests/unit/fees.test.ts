import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type CardPurpose,
  FEES_FOR,
  FEE_NAMES,
  type FeeRule,
  computeFees,
  feeAmount,
  hundredthsToString,
  momoAmountToSend,
} from '@shared/fees';
import { MAX_AMOUNT_CENTS } from '@shared/money';

const PURPOSES: CardPurpose[] = ['media', 'general', 'tokencard'];
const amount = fc.integer({ min: 0, max: MAX_AMOUNT_CENTS });
/** a percentage in hundredths: 0.00 % to 100.00 % */
const percent = fc.integer({ min: 0, max: 10_000 });

/**
 * The exact rational n/d rounded half up, checked by its defining inequalities rather than
 * by the same formula: r is the integer with r − ½ ≤ n/d < r + ½.
 */
function isHalfUpOf(r: number, n: bigint, d: bigint): boolean {
  const twice = 2n * BigInt(r) * d; // 2·r·d
  return twice - d <= 2n * n && 2n * n < twice + d;
}

describe('feeAmount', () => {
  it('charges value/100 percent of the amount, rounded half up to the cent', () => {
    fc.assert(
      fc.property(amount, percent, (a, v) => {
        const fee = feeAmount({ type: 'percentage', value: v }, a);
        expect(Number.isSafeInteger(fee)).toBe(true);
        // exact fee in cents = a × (v/100) / 100 = a·v / 10 000
        expect(isHalfUpOf(fee, BigInt(a) * BigInt(v), 10_000n)).toBe(true);
        expect(fee).toBeLessThanOrEqual(a);
      }),
    );
  });

  it('matches hand-worked examples', () => {
    const pct = (value: number, a: number) => feeAmount({ type: 'percentage', value }, a);
    expect(pct(50, 100_000)).toBe(500); // 0.5 % of 1000.00 = 5.00
    expect(pct(150, 1000)).toBe(15); // 1.5 % of 10.00 = 0.15
    expect(pct(150, 100)).toBe(2); // 1.5 % of 1.00 = 0.015 → 0.02 (half up)
    expect(pct(150, 99)).toBe(1); // 0.01485 → 0.01
    expect(pct(50, 1)).toBe(0); // 0.00005 → 0.00
    expect(pct(50, 100)).toBe(1); // 0.005 → 0.01 (half up)
    expect(pct(100, 12345)).toBe(123); // 1 % of 123.45 = 1.2345 → 1.23
    expect(pct(0, 99999)).toBe(0);
    expect(pct(10_000, 4321)).toBe(4321);
  });

  it('charges a fixed fee as its value, whatever the amount', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 1_000_000 }), (a, v) => {
        expect(feeAmount({ type: 'fixed', value: v }, a)).toBe(v);
      }),
    );
  });

  it('never charges less on a larger amount', () => {
    fc.assert(
      fc.property(amount, amount, percent, (a, b, v) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(feeAmount({ type: 'percentage', value: v }, lo)).toBeLessThanOrEqual(
          feeAmount({ type: 'percentage', value: v }, hi),
        );
      }),
    );
  });
});

const NAME_POOL = [
  'card-issuance-media',
  'card-load-media',
  'flat-fee',
  'wallet-topup-tron',
  'card-withdraw-general',
  'api-monthly',
];
const rule = (name: string) =>
  fc.record({
    name: fc.constant(name),
    type: fc.constantFrom<FeeRule['type']>('percentage', 'fixed'),
    value: fc.integer({ min: 0, max: 10_000 }),
    status: fc.constantFrom<FeeRule['status']>('Active', 'Inactive'),
  });
/** a schedule with some of the pool's names, each at most once */
const schedule = fc.subarray(NAME_POOL).chain((names) => fc.tuple(...names.map(rule)).map((rs) => rs as FeeRule[]));
const names = fc.uniqueArray(fc.constantFrom(...NAME_POOL, 'no-such-fee'), { maxLength: 5 });

describe('computeFees', () => {
  it('charges each active named fee once, in the order of the names, and sums them exactly', () => {
    fc.assert(
      fc.property(schedule, names, amount, (s, ns, a) => {
        const r = computeFees(s, ns, a);
        const active = ns.filter((n) => s.some((x) => x.name === n && x.status === 'Active'));
        expect(r.lines.map((l) => l.name)).toEqual(active);
        for (const line of r.lines) {
          const src = s.find((x) => x.name === line.name)!;
          expect(line).toEqual({ name: src.name, type: src.type, value: src.value, amount: feeAmount(src, a) });
        }
        expect(r.total).toBe(r.lines.reduce((sum, l) => sum + l.amount, 0));
        expect(Number.isSafeInteger(r.total)).toBe(true);
      }),
    );
  });

  it('skips inactive and missing fees', () => {
    const s: FeeRule[] = [
      { name: 'card-issuance-media', type: 'fixed', value: 500, status: 'Inactive' },
      { name: 'card-load-media', type: 'percentage', value: 150, status: 'Active' },
    ];
    expect(computeFees(s, FEES_FOR.cardCreation('media'), 10_000)).toEqual({
      lines: [{ name: 'card-load-media', type: 'percentage', value: 150, amount: 150 }],
      total: 150,
    });
    expect(computeFees([], FEES_FOR.cardCreation('general'), 10_000)).toEqual({ lines: [], total: 0 });
  });

  it('computes the default card-creation fees of the spec: 5.00 + 1.5 % + 0.50', () => {
    const s: FeeRule[] = [
      { name: 'flat-fee', type: 'fixed', value: 50, status: 'Active' },
      { name: 'card-load-general', type: 'percentage', value: 150, status: 'Active' },
      { name: 'card-issuance-general', type: 'fixed', value: 500, status: 'Active' },
    ];
    const r = computeFees(s, FEES_FOR.cardCreation('general'), 12_345); // 123.45 USD
    expect(r.lines.map((l) => [l.name, l.amount])).toEqual([
      ['card-issuance-general', 500],
      ['card-load-general', 185], // 1.85175 → 1.85
      ['flat-fee', 50],
    ]);
    expect(r.total).toBe(735);
  });
});

describe('FEES_FOR', () => {
  it('names the fees of each movement', () => {
    for (const p of PURPOSES) {
      expect(FEES_FOR.cardCreation(p)).toEqual([`card-issuance-${p}`, `card-load-${p}`, 'flat-fee']);
      expect(FEES_FOR.cardFunding(p)).toEqual([`card-load-${p}`, 'flat-fee']);
      expect(FEES_FOR.cardWithdrawal(p)).toEqual([`card-withdraw-${p}`, 'flat-fee']);
    }
    expect(FEES_FOR.tronTopup()).toEqual(['wallet-topup-tron']);
  });

  it('names only fees that the default schedule defines', () => {
    const sql = readFileSync(new URL('../../server/db/migrations/0002_wallet_defaults.sql', import.meta.url), 'utf8');
    const defined = new Set(
      [...sql.matchAll(/\(gen_random_uuid\(\), '([a-z-]+)', '(?:fixed|percentage)'/g)].map((m) => m[1]),
    );
    const used = [
      ...PURPOSES.flatMap((p) => [
        ...FEES_FOR.cardCreation(p),
        ...FEES_FOR.cardFunding(p),
        ...FEES_FOR.cardWithdrawal(p),
      ]),
      ...FEES_FOR.tronTopup(),
      FEE_NAMES.maintenance,
      FEE_NAMES.apiMonthly,
    ];
    for (const name of used) expect(defined, name).toContain(name);
  });
});

/** a rate such as "15", "15.5" or "12.3456" (below 10 000 GHS per USDT, so results stay exact integers) */
const rate = fc
  .tuple(fc.integer({ min: 0, max: 9_999 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 9999 }))
  .map(([whole, places, frac]) => {
    const digits = String(frac).padStart(4, '0').slice(0, places);
    return {
      text: places ? `${whole}.${digits}` : String(whole),
      e4: BigInt(whole) * 10_000n + BigInt(digits.padEnd(4, '0') || '0'),
    };
  });

describe('momoAmountToSend', () => {
  it('is rate × amount rounded half up to the pesewa, plus the flat fee', () => {
    fc.assert(
      fc.property(rate, fc.integer({ min: 0, max: 100_000 }), amount, (r, flat, a) => {
        const sent = momoAmountToSend(r.text, flat, a);
        // GHS in pesewas, exactly: (rate_e4 / 10^4) × a = rate_e4 · a / 10^4
        expect(isHalfUpOf(sent - flat, r.e4 * BigInt(a), 10_000n)).toBe(true);
      }),
    );
  });

  it('matches hand-worked examples', () => {
    expect(momoAmountToSend('15.50', 500, 1000)).toBe(16_000); // 10.00 × 15.50 + 5.00 = 160.00
    expect(momoAmountToSend('15.5', 0, 100_000)).toBe(1_550_000);
    expect(momoAmountToSend('12.3456', 0, 1000)).toBe(12_346); // 123.456 → 123.46
    expect(momoAmountToSend('12.3455', 0, 100)).toBe(1235); // 12.3455 → 12.35 (half up)
    expect(momoAmountToSend('12.3454', 0, 100)).toBe(1235); // 12.3454 → 12.35
    expect(momoAmountToSend('0.0001', 0, 1)).toBe(0);
    expect(momoAmountToSend(' 15.50 ', 1, 100)).toBe(1551);
  });

  it('refuses a rate that is not a plain decimal with at most 4 places', () => {
    for (const bad of ['', 'abc', '-1', '1.23456', '1e3', '1,5', '.5', '15.'])
      expect(() => momoAmountToSend(bad, 0, 100), bad).toThrow();
  });
});

describe('hundredthsToString', () => {
  it('writes fee values with two decimals', () => {
    expect(hundredthsToString(0)).toBe('0.00');
    expect(hundredthsToString(5)).toBe('0.05');
    expect(hundredthsToString(275)).toBe('2.75');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (v) => {
        expect(hundredthsToString(v)).toBe(`${Math.floor(v / 100)}.${String(v % 100).padStart(2, '0')}`);
      }),
    );
  });
});
