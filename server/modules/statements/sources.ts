import { eq } from 'drizzle-orm';
import {
  STATEMENT_SOURCE_NAMES,
  type ApiStatementSource,
  type StatementMapping,
  type StatementRules,
  type StatementSource,
} from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext } from '../../context';
import { statementSources } from '../../db/schema';

interface SourceConfig {
  mapping: StatementMapping;
  rules: StatementRules;
  updatedAt: Date | null;
}

const none = { direction_column: null, in_values: [], decimal_separator: '.' as const, delimiter: ',' as const };

/**
 * The built-in mappings, after what each party's file looks like: TronGrid's TRC-20 transfers
 * (transaction_id, block_timestamp in milliseconds, from, to, value in millionths of USDT, no sign),
 * the card issuer's settlement report (its own view: a card load is money to it) and the mobile-money
 * operator's statement of our merchant account.
 */
export const DEFAULT_SOURCES: Record<StatementSource, { mapping: StatementMapping; rules: StatementRules }> = {
  chain: {
    mapping: {
      ...none,
      date_column: 'block_timestamp',
      date_format: 'unix_ms',
      amount_column: 'value',
      amount_scale: 6,
      sign: 'absolute',
      reference_column: 'transaction_id',
    },
    // A cent: the watcher credits whole cents of what the chain carried in millionths.
    rules: { tolerance: 1, window_hours: 24, reference: 'contains', one_to_many: false },
  },
  issuer: {
    mapping: {
      ...none,
      date_column: 'settlement_date',
      date_format: 'iso',
      amount_column: 'amount',
      amount_scale: null,
      sign: 'inverted',
      reference_column: 'transaction_reference',
    },
    rules: { tolerance: 0, window_hours: 48, reference: 'off', one_to_many: true },
  },
  momo: {
    mapping: {
      ...none,
      date_column: 'date',
      date_format: 'iso',
      amount_column: 'amount',
      amount_scale: null,
      sign: 'signed',
      reference_column: 'reference',
    },
    rules: { tolerance: 0, window_hours: 24, reference: 'contains', one_to_many: false },
  },
};

export async function sourceConfig(ctx: AppContext, source: StatementSource): Promise<SourceConfig> {
  const [row] = await ctx.db.select().from(statementSources).where(eq(statementSources.source, source));
  const d = DEFAULT_SOURCES[source];
  if (!row) return { ...d, updatedAt: null };
  return {
    mapping: { ...d.mapping, ...(row.mapping as Partial<StatementMapping>) },
    rules: { ...d.rules, ...(row.rules as Partial<StatementRules>) },
    updatedAt: row.updatedAt,
  };
}

export const rulesOut = (r: StatementRules) => ({ ...r, tolerance: formatMoney(r.tolerance) });

export function presentSource(source: StatementSource, c: SourceConfig): ApiStatementSource {
  return {
    source,
    name: STATEMENT_SOURCE_NAMES[source],
    mapping: c.mapping,
    rules: rulesOut(c.rules),
    updated_at: c.updatedAt?.toISOString() ?? null,
  };
}

export async function saveSource(
  ctx: AppContext,
  source: StatementSource,
  body: { mapping: StatementMapping; rules: StatementRules },
  by: string,
): Promise<ApiStatementSource> {
  const now = ctx.now();
  const row = { mapping: body.mapping, rules: body.rules, updatedBy: by, updatedAt: now };
  await ctx.db
    .insert(statementSources)
    .values({ source, ...row })
    .onConflictDoUpdate({ target: statementSources.source, set: row });
  return presentSource(source, { ...body, updatedAt: now });
}
