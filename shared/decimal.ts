/**
 * The one decimal parser: amounts, fee values, rates and flat fees all cross the API as a number or
 * a decimal string and are kept as integers in units of 10^-scale (cents, hundredths, 1/10 000 of a
 * rate). No floating point touches the value: a JSON number is read by its shortest decimal text.
 * Callers turn a problem into the message of their field.
 */

export interface DecimalRule {
  /** how many decimals at most; the result counts units of 10^-scale */
  scale: number;
  /** the largest value accepted, in units (at most Number.MAX_SAFE_INTEGER) */
  max: number;
  /** accept 0 (a fee may be zero; an amount to move may not) */
  allowZero?: boolean;
  /** thousands commas are dropped before reading ("1,250.50"): money as the contract says */
  commas?: boolean;
  /** a leading minus is read as a negative value (trusted API text only; requests never are) */
  signed?: boolean;
}

export type DecimalProblem = 'missing' | 'negative' | 'zero' | 'too-many-decimals' | 'not-a-number' | 'too-large';

export type ParsedDecimal = { ok: true; units: number } | { ok: false; problem: DecimalProblem };

const DIGITS = /^(\d+)(?:\.(\d+))?$/;

const fail = (problem: DecimalProblem): ParsedDecimal => ({ ok: false, problem });

export function parseDecimal(input: unknown, rule: DecimalRule): ParsedDecimal {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return fail('not-a-number');
    text = String(input);
  } else if (typeof input === 'string') text = input.trim();
  else return fail('missing');
  if (rule.commas) text = text.replace(/,/g, '');
  if (text === '') return fail('missing');
  const negative = text.startsWith('-');
  if (negative && !rule.signed) return fail('negative');
  const m = DIGITS.exec(negative ? text.slice(1) : text);
  if (!m) return fail('not-a-number');
  const frac = m[2] ?? '';
  if (frac.length > rule.scale) return fail('too-many-decimals');
  const whole = m[1]!.replace(/^0+(?=\d)/, '');
  // Longer than any safe integer: refused before BigInt has to read a million digits.
  if (whole.length > 16) return fail('too-large');
  const units = BigInt(whole) * 10n ** BigInt(rule.scale) + BigInt(frac.padEnd(rule.scale, '0') || '0');
  if (units > BigInt(rule.max)) return fail('too-large');
  if (units === 0n) return rule.allowZero ? { ok: true, units: 0 } : fail('zero');
  return { ok: true, units: negative ? -Number(units) : Number(units) };
}

/** Trusted API text (what the server wrote) → units; throws on anything else. */
export function unitsOf(text: string, rule: DecimalRule): number {
  const r = parseDecimal(text, rule);
  if (!r.ok) throw new Error(`not a decimal with at most ${rule.scale} places (${r.problem}): ${text}`);
  return r.units;
}

/** units → text with exactly `scale` decimals ("1250.00"), a minus for negatives. */
export function formatDecimal(units: number, scale: number): string {
  const abs = BigInt(Math.abs(units));
  const unit = 10n ** BigInt(scale);
  const frac = scale ? `.${String(abs % unit).padStart(scale, '0')}` : '';
  return `${units < 0 ? '-' : ''}${abs / unit}${frac}`;
}
