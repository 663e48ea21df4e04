import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../server/lib/csv';

/** The one CSV cell writer of every export (OWASP CSV injection). */
describe('csvCell', () => {
  it('prefixes text that a spreadsheet would run as a formula', () => {
    for (const v of ["-2+3+cmd|' /C calc'!A0", '=1+1', '+1', '@SUM(1)', '\t=1', '\r=1', '-12.50', '-', '-x']) {
      expect(csvCell(v).replace(/^"|"$/g, '')).toMatch(/^'/);
    }
    expect(csvCell('Ama Mensah')).toBe('Ama Mensah');
  });

  it('leaves the plain decimals of a numeric column, and numbers, as numbers', () => {
    expect(csvCell('-12.50', true)).toBe('-12.50');
    expect(csvCell('12.50', true)).toBe('12.50');
    expect(csvCell(-3)).toBe('-3');
    // anything else in a numeric column is text like any other
    expect(csvCell('-1+2', true)).toBe("'-1+2");
    expect(csvCell('=1', true)).toBe("'=1");
  });

  it('quotes separators (comma and semicolon), quotes and line breaks', () => {
    expect(csvCell('=1+1;=2')).toBe(`"'=1+1;=2"`);
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvLine(['-1.00', '-1.00'], [true, false])).toBe("-1.00,'-1.00\r\n");
  });
});
