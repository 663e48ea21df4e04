import { describe, expect, it } from 'vitest';
import { csvRows, parseAmount, parseMoment } from '../../server/modules/statements/csv';
import { type Movement, matchStatement, tokensOf } from '../../server/modules/statements/match';

const point = { amount_scale: null, decimal_separator: '.' } as const;
const H = 3_600_000;

describe('reading a statement', () => {
  it('reads quoted cells, CRLF rows and skips blank lines, numbering lines as the file does', () => {
    expect(csvRows('a,b\r\n"x, ""y""",2\n\n"multi\nline",3\n', ',')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, "y"', '2'] },
      { line: 4, cells: ['multi\nline', '3'] },
    ]);
  });

  it('reads amounts: raw USDT millionths (a fraction of a cent dropped), decimal commas, thousands, parentheses', () => {
    expect(parseAmount('12345678', { amount_scale: 6, decimal_separator: '.' })).toBe(1234);
    expect(parseAmount('1.234,56', { amount_scale: null, decimal_separator: ',' })).toBe(123_456);
    expect(parseAmount('1,234.5', point)).toBe(123_450);
    expect(parseAmount('(10.00)', point)).toBe(-1000);
    expect(parseAmount('-0.019', point)).toBe(-1);
    expect(parseAmount('12.5', { amount_scale: 6, decimal_separator: '.' })).toBeNull();
    expect(parseAmount('ten', point)).toBeNull();
    expect(parseAmount('1,23.00', point)).toBeNull();
  });

  it('reads dates in each format as UTC, and refuses days that do not exist', () => {
    expect(parseMoment('2026-06-30', 'iso')).toBe(Date.UTC(2026, 5, 30));
    expect(parseMoment('2026-06-30 23:59:59', 'iso')).toBe(Date.UTC(2026, 5, 30, 23, 59, 59));
    expect(parseMoment('2026-06-30T10:00:00+02:00', 'iso')).toBe(Date.UTC(2026, 5, 30, 8));
    expect(parseMoment('30/06/2026 12:00', 'dd/mm/yyyy')).toBe(Date.UTC(2026, 5, 30, 12));
    expect(parseMoment('06/30/2026', 'mm/dd/yyyy')).toBe(Date.UTC(2026, 5, 30));
    expect(parseMoment('1700000000', 'unix_s')).toBe(1_700_000_000_000);
    expect(parseMoment('31/02/2026', 'dd/mm/yyyy')).toBeNaN();
    expect(parseMoment('yesterday', 'iso')).toBeNaN();
  });
});

describe('matching', () => {
  const mv = (reference: string, amount: number, at: number): Movement => ({
    transferId: reference,
    reference,
    kind: 'deposit',
    amount,
    at,
    keys: [reference.toUpperCase()],
  });
  const rules = { tolerance: 0, windowMs: 24 * H, reference: 'off' as const, oneToMany: false, absolute: false };
  const period = { from: 0, to: 100 * H };

  it('takes the nearest movement in time of the same amount, each once', () => {
    const ms = [mv('A', 500, 1 * H), mv('B', 500, 10 * H), mv('C', 500, 20 * H)];
    const r = matchStatement(
      [
        { line: 2, at: 9 * H, amount: 500, reference: null },
        { line: 3, at: 11 * H, amount: 500, reference: null },
      ],
      ms,
      rules,
      period,
    );
    expect(r.lines.map((l) => l.movements[0]?.reference)).toEqual(['B', 'C']);
    expect(r.missingTheirs.map((m) => m.reference)).toEqual(['A']);
  });

  it('keeps the direction unless the statement has none', () => {
    const ms = [mv('A', -500, H)];
    const line = [{ line: 2, at: H, amount: 500, reference: null }];
    expect(matchStatement(line, ms, rules, period).lines[0]!.matched).toBe(false);
    expect(matchStatement(line, ms, { ...rules, absolute: true }, period).lines[0]!.matched).toBe(true);
  });

  it('reads a reference’s words for ours', () => {
    expect(tokensOf('Deposit TOP-7K2M9QX4HD, ok')).toContain('TOP-7K2M9QX4HD');
    expect(tokensOf(null)).toEqual([]);
  });

  it('leaves out of the missing the ledger movements outside the period', () => {
    const r = matchStatement([], [mv('A', 1, -H), mv('B', 1, H)], rules, period);
    expect(r.missingTheirs.map((m) => m.reference)).toEqual(['B']);
  });
});
