import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeValueProblem, flatFeeProblem, momoSyncBody, rateProblem, rateText } from '@shared/contract';
import { type DecimalRule, formatDecimal, parseDecimal, unitsOf } from '@shared/decimal';
import { feeRuleOf, hundredthsOf } from '@shared/fees';

const scale = fc.integer({ min: 0, max: 4 });
const units = fc.integer({ min: 0, max: 10_000_000_000 });
const rule = (s: number, extra: Partial<DecimalRule> = {}): DecimalRule => ({
  scale: s,
  max: Number.MAX_SAFE_INTEGER,
  allowZero: true,
  ...extra,
});
const problem = (input: unknown, r: DecimalRule) => {
  const p = parseDecimal(input, r);
  return p.ok ? null : p.problem;
};

/** units written with `places` decimals (places ≥ the digits needed), independently of formatDecimal */
function written(u: number, s: number, places: number): string {
  const digits = String(u).padStart(s + 1, '0');
  const whole = digits.slice(0, digits.length - s);
  const frac = digits.slice(digits.length - s).padEnd(places, '0');
  return places ? `${whole}.${frac}` : whole;
}

describe('parseDecimal reads exactly', () => {
  it('round-trips every value through formatDecimal, at every scale', () => {
    fc.assert(
      fc.property(scale, units, (s, u) => {
        expect(formatDecimal(u, s)).toBe(written(u, s, s));
        expect(parseDecimal(formatDecimal(u, s), rule(s))).toEqual({ ok: true, units: u });
      }),
    );
  });

  it('reads fewer decimals, no decimals and leading zeros as the same value', () => {
    fc.assert(
      fc.property(scale, fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 5 }), (s, w, zeros) => {
        const lead = '0'.repeat(zeros);
        expect(parseDecimal(`${lead}${w}`, rule(s))).toEqual({ ok: true, units: w * 10 ** s });
        if (s > 0)
          expect(parseDecimal(`${lead}${w}.5`, rule(s))).toEqual({ ok: true, units: w * 10 ** s + 5 * 10 ** (s - 1) });
      }),
    );
  });

  it('reads JSON numbers by their decimal text, never through a product of floats', () => {
    fc.assert(
      fc.property(scale, units, (s, u) => {
        expect(parseDecimal(u / 10 ** s, rule(s))).toEqual({ ok: true, units: u });
      }),
    );
    expect(parseDecimal(0.1 + 0.2, rule(2))).toEqual({ ok: false, problem: 'too-many-decimals' });
    expect(parseDecimal(12.3456, rule(4))).toEqual({ ok: true, units: 123_456 });
  });

  it('drops thousands commas only when the rule says so', () => {
    fc.assert(
      fc.property(units, (u) => {
        const withCommas = `${BigInt(Math.floor(u / 100)).toLocaleString('en-US')}.${String(u % 100).padStart(2, '0')}`;
        expect(parseDecimal(withCommas, rule(2, { commas: true }))).toEqual({ ok: true, units: u });
        if (u >= 100_000) expect(problem(withCommas, rule(2))).toBe('not-a-number');
      }),
    );
  });

  it('reads a minus only when signed, and never gives -0', () => {
    fc.assert(
      fc.property(scale, units, (s, u) => {
        const text = `-${formatDecimal(u, s)}`;
        expect(problem(text, rule(s))).toBe('negative');
        expect(parseDecimal(text, rule(s, { signed: true }))).toEqual({ ok: true, units: u === 0 ? 0 : -u });
        expect(formatDecimal(-u, s)).toBe(u === 0 ? formatDecimal(0, s) : text);
      }),
    );
    expect(Object.is(unitsOf('-0.00', rule(2, { signed: true })), 0)).toBe(true);
  });
});

describe('parseDecimal refuses', () => {
  it('more decimals than the scale, even zeros', () => {
    fc.assert(
      fc.property(scale, units, fc.stringMatching(/^[0-9]{1,5}$/), (s, u, extra) => {
        const text = s ? `${formatDecimal(u, s)}${extra}` : `${u}.${extra}`;
        expect(problem(text, rule(s))).toBe('too-many-decimals');
      }),
    );
  });

  it('values above the maximum, however long', () => {
    fc.assert(
      fc.property(scale, units, units, (s, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(parseDecimal(formatDecimal(lo, s), rule(s, { max: hi })).ok).toBe(true);
        if (hi > lo) expect(problem(formatDecimal(hi, s), rule(s, { max: lo }))).toBe('too-large');
      }),
    );
    expect(problem('9'.repeat(40), rule(2))).toBe('too-large');
    expect(problem(`${'0'.repeat(40)}1`, rule(2))).toBeNull();
    expect(problem('90071992547409.92', rule(2))).toBe('too-large');
  });

  it('zero unless allowed', () => {
    for (const zero of ['0', '0.0', '000.0000', 0, -0]) {
      expect(problem(zero, rule(4, { allowZero: false }))).toBe('zero');
      expect(parseDecimal(zero, rule(4))).toEqual({ ok: true, units: 0 });
    }
  });

  it('text, signs other than a leading minus, exponents, non-finite numbers and nothing', () => {
    for (const x of ['abc', '+5', '.5', '5.', '1.2.3', '1 000', '0x10', '1e3', 'Infinity', NaN, Infinity, 1e21, 1e-7])
      expect(problem(x, rule(4)), String(x)).toBe('not-a-number');
    for (const x of ['', '   ', undefined, null, true, {}, []]) expect(problem(x, rule(2)), String(x)).toBe('missing');
    expect(problem(',', rule(2, { commas: true }))).toBe('missing');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), scale, (s, sc) => {
        fc.pre(/[^\d.\s]/.test(s.replace(/^-/, '')));
        expect(parseDecimal(s, rule(sc, { signed: true })).ok).toBe(false);
      }),
    );
  });
});

describe('unitsOf', () => {
  it('throws on what it cannot read', () => {
    expect(unitsOf('1.50', rule(2))).toBe(150);
    expect(() => unitsOf('1.505', rule(2))).toThrow();
    expect(() => unitsOf('ten', rule(2))).toThrow();
  });
});

describe('the contract fields on the one parser', () => {
  const rate = momoSyncBody.shape.rate;
  const flatFee = momoSyncBody.shape.flat_fee;

  it('keeps a rate in one form: at least 2 decimals, no trailing zeros beyond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_9999 }), (u) => {
        const kept = rateText(u);
        // the same value, with 2 decimals or with no trailing zero beyond them
        expect(unitsOf(kept, rule(4))).toBe(u);
        expect(kept).toMatch(/^\d+\.(\d{2}|\d{2}\d*[1-9])$/);
        expect(rate.parse(formatDecimal(u, 4))).toBe(kept);
        expect(rate.parse(kept)).toBe(kept);
      }),
    );
    expect(rate.parse('015.5000')).toBe('15.50');
    expect(rate.parse(15.5)).toBe('15.50');
    expect(rate.parse('12.3450')).toBe('12.345');
  });

  it('refuses rates and flat fees the contract refuses, with the form’s messages', () => {
    for (const bad of ['0', '-1', '1.23456', '1,5', '1e3', '1000000', ''])
      expect(rateProblem(bad), bad).toBe('Rate must be a number above 0 with at most 4 decimals');
    expect(rateProblem('999999.9999')).toBeNull();
    for (const bad of ['-1', '1.005', '1,000', 'five', '1000000000'])
      expect(flatFeeProblem(bad), bad).toBe('Flat Fee must be a number with at most 2 decimals');
    expect(flatFeeProblem('0')).toBeNull();
    expect(flatFee.parse('999999999.99')).toBe(99_999_999_999);
    expect(flatFee.parse(2.5)).toBe(250);
    expect(rate.safeParse(undefined).error?.issues[0]?.message).toBe('Rate is required');
    expect(flatFee.safeParse(null).error?.issues[0]?.message).toBe('Flat Fee is required');
  });

  it('checks fee values by format, then by the range of the type', () => {
    expect(feeValueProblem('percentage', '')).toBe('Value is required');
    expect(feeValueProblem('percentage', '1.234')).toBe('Enter a value such as 1.50 (at most 2 decimals)');
    expect(feeValueProblem('percentage', '-1')).toBe('Enter a value such as 1.50 (at most 2 decimals)');
    expect(feeValueProblem('percentage', '100.01')).toBe('A percentage fee must be between 0 and 100');
    expect(feeValueProblem('fixed', '10000.01')).toBe('A fixed fee must be between USD 0.00 and USD 10,000.00');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_00 }), (u) => {
        expect(feeValueProblem('percentage', formatDecimal(u, 2))).toBeNull();
        expect(feeValueProblem('percentage', u / 100)).toBeNull();
      }),
    );
  });

  it('reads fee rows as the API writes them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_00 }), (u) => {
        expect(hundredthsOf(formatDecimal(u, 2))).toBe(u);
      }),
    );
    expect(feeRuleOf({ name: 'flat-fee', type: 'fixed', value: '0.50', state: 'Active' })).toEqual({
      name: 'flat-fee',
      type: 'fixed',
      value: 50,
      status: 'Active',
    });
    expect(() => hundredthsOf('0.505')).toThrow();
  });
});
