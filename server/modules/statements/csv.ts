import type { StatementMapping } from '@shared/contract';

/** A statement's line as the mapping reads it. */
export interface StatementLine {
  /** the line's number in the file; the header is line 1 */
  line: number;
  /** epoch milliseconds */
  at: number;
  /** signed cents, positive into the platform; with sign `absolute` never negative */
  amount: number;
  reference: string | null;
}

export type Parsed = { ok: true; lines: StatementLine[] } | { ok: false; errors: string[] };

const MAX_ERRORS = 20;

/** RFC 4180 rows (quoted cells may hold the delimiter, doubled quotes and line breaks), each with its first line's number. */
export function csvRows(text: string, delimiter: string): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  const s = text.replace(/^\uFEFF/, '');
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    row.push(cell);
    if (row.some((c) => c.trim() !== '')) rows.push({ line: start, cells: row });
    row = [];
    cell = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      end();
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== '' || row.length) end();
  return rows;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A day and optional time of day as UTC, or NaN. */
function utc(y: number, m: number, d: number, time: string | undefined): number {
  const t = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time ?? '0:00');
  if (!t || m < 1 || m > 12 || d < 1 || d > 31) return Number.NaN;
  const ms = Date.UTC(y, m - 1, d, Number(t[1]), Number(t[2]), Number(t[3] ?? 0));
  // 31/02 rolls over into March: not a date.
  return new Date(ms).getUTCDate() === d ? ms : Number.NaN;
}

/** The moment a cell names, in the mapping's format; NaN when it names none. A time without a zone is UTC. */
export function parseMoment(v: string, format: StatementMapping['date_format']): number {
  const s = v.trim();
  if (format === 'unix_ms' || format === 'unix_s')
    return /^\d{1,15}$/.test(s) ? Number(s) * (format === 'unix_s' ? 1000 : 1) : Number.NaN;
  if (format === 'iso') {
    const local = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?)?$/.exec(s);
    if (local) return utc(Number(local[1]), Number(local[2]), Number(local[3]), local[4]);
    return /^\d{4}-\d{2}-\d{2}T/.test(s) ? Date.parse(s) : Number.NaN;
  }
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?$/.exec(s);
  if (!m) return Number.NaN;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return format === 'dd/mm/yyyy' ? utc(Number(m[3]), b, a, m[4]) : utc(Number(m[3]), a, b, m[4]);
}

/**
 * An amount cell into cents, or null. Whole numbers with implied decimals (a TronGrid value has 6) and
 * decimals with either separator; a fraction of a cent is dropped, as the chain watcher drops it.
 */
export function parseAmount(v: string, m: Pick<StatementMapping, 'amount_scale' | 'decimal_separator'>): number | null {
  let s = v.trim().replace(/\s/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = negative || s.startsWith('-');
    s = s.slice(1);
  }
  if (m.amount_scale !== null) {
    if (!/^\d{1,30}$/.test(s)) return null;
    const units = BigInt(s);
    const cents =
      m.amount_scale >= 2 ? units / 10n ** BigInt(m.amount_scale - 2) : units * 10n ** BigInt(2 - m.amount_scale);
    if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    return (negative ? -1 : 1) * Number(cents);
  }
  const thousands = m.decimal_separator === '.' ? ',' : '.';
  if (
    !new RegExp(
      `^\\d{1,3}(\\${thousands}\\d{3})*(\\${m.decimal_separator}\\d+)?$|^\\d+(\\${m.decimal_separator}\\d+)?$`,
    ).test(s)
  )
    return null;
  const [whole, frac = ''] = s.split(thousands).join('').split(m.decimal_separator);
  if (whole!.length > 13) return null;
  const cents = Number(whole) * 100 + Number(`${frac}00`.slice(0, 2));
  return negative ? -cents : cents;
}

/** Reads a file through a source's mapping; every problem names its line and column. */
export function readStatement(text: string, m: StatementMapping): Parsed {
  const rows = csvRows(text, m.delimiter);
  const header = rows[0];
  if (!header) return { ok: false, errors: ['The file is empty: it needs a header line and at least one line'] };
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const wanted: Array<[string, string | null]> = [
    ['date', m.date_column],
    ['amount', m.amount_column],
    ['reference', m.reference_column],
    ['direction', m.sign === 'direction' ? m.direction_column : null],
  ];
  const index: Record<string, number> = {};
  const errors: string[] = [];
  for (const [role, name] of wanted) {
    if (!name) continue;
    const i = names.indexOf(name.toLowerCase());
    if (i < 0) errors.push(`Line ${header.line}: the ${role} column "${name}" is missing from the header`);
    index[role] = i;
  }
  if (errors.length) return { ok: false, errors };
  if (rows.length < 2) return { ok: false, errors: ['The file has a header but no lines'] };
  const ins = new Set(m.in_values.map((v) => v.trim().toLowerCase()));
  const lines: StatementLine[] = [];
  for (const r of rows.slice(1)) {
    const cell = (role: string) => (index[role] === undefined ? '' : (r.cells[index[role]!] ?? '').trim());
    const problem = (role: string, what: string) => {
      if (errors.length < MAX_ERRORS)
        errors.push(`Line ${r.line}, column "${wanted.find((w) => w[0] === role)![1]}": ${what}`);
    };
    const at = parseMoment(cell('date'), m.date_format);
    if (Number.isNaN(at))
      problem('date', cell('date') ? `"${cell('date')}" is not a date in the format ${m.date_format}` : 'it is empty');
    let amount = parseAmount(cell('amount'), m);
    if (amount === null) problem('amount', cell('amount') ? `"${cell('amount')}" is not an amount` : 'it is empty');
    if (m.sign === 'direction' && !cell('direction')) problem('direction', 'it is empty');
    if (amount !== null) {
      if (m.sign === 'inverted') amount = -amount;
      else if (m.sign === 'absolute') amount = Math.abs(amount);
      else if (m.sign === 'direction') amount = Math.abs(amount) * (ins.has(cell('direction').toLowerCase()) ? 1 : -1);
    }
    if (errors.length) continue;
    lines.push({ line: r.line, at, amount: amount!, reference: cell('reference') || null });
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, lines };
}

/** A UTC day of a moment, YYYY-MM-DD. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
