import { and, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type ApiStatement,
  type ApiStatementLine,
  type StatementLineStatus,
  type StatementMapping,
  type StatementRules,
  type StatementSource,
  type statementLinesQuery,
  statementUploadFields,
} from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext } from '../../context';
import { statementItems, statements, users } from '../../db/schema';
import { conflict, invalid, invalidField, notFound, parseOr422 } from '../../lib/http';
import { dayOf, readStatement } from './csv';
import { ledgerMovements } from './ledger';
import { type Movement, matchStatement } from './match';
import { rulesOut, sourceConfig } from './sources';
import { readCsvForm, sha256 } from './upload-form';

type StatementRow = typeof statements.$inferSelect;
type ItemRow = typeof statementItems.$inferSelect;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Items per insert, each insert one JSON parameter: parsing one document beats binding 10 parameters a row. */
const CHUNK = 5000;

const isUnique = (e: unknown) =>
  (e as { code?: string }).code === '23505' || (e as { cause?: { code?: string } }).cause?.code === '23505';

async function present(ctx: AppContext, s: StatementRow): Promise<ApiStatement> {
  const [[open], [by]] = await Promise.all([
    ctx.db
      .select({ n: count() })
      .from(statementItems)
      .where(
        and(
          eq(statementItems.statementId, s.id),
          ne(statementItems.status, 'matched'),
          isNull(statementItems.resolvedAt),
        ),
      ),
    s.uploadedBy ? ctx.db.select({ email: users.email }).from(users).where(eq(users.id, s.uploadedBy)) : [],
  ]);
  return {
    id: s.id,
    source: s.source as StatementSource,
    file_name: s.fileName,
    content_hash: s.contentHash,
    start_date: s.startDate,
    end_date: s.endDate,
    lines: s.lineCount,
    rules: rulesOut(s.rules as StatementRules),
    counts: {
      matched: s.matched,
      missing_ours: s.missingOurs,
      missing_theirs: s.missingTheirs,
      open: open?.n ?? 0,
    },
    uploaded_by: by?.email ?? null,
    created_at: s.createdAt.toISOString(),
  };
}

const movementOut = (m: Movement) => ({
  transfer_id: m.transferId,
  reference: m.reference,
  kind: m.kind,
  amount: formatMoney(m.amount),
  at: new Date(m.at).toISOString(),
});

/**
 * POST /statements: reads the file through its source's mapping, matches it against the ledger of
 * the period (the days its lines cover unless given) and keeps the result. The same file again (its
 * SHA-256) answers the statement it made, unchanged.
 */
export async function uploadStatement(
  ctx: AppContext,
  req: FastifyRequest,
  by: string,
): Promise<{ statement: ApiStatement; existing: boolean }> {
  const form = await readCsvForm(req);
  const f: z.output<typeof statementUploadFields> = parseOr422(statementUploadFields, form.fields);
  if (!form.file?.length) throw invalidField('file', 'Choose a CSV file');
  const hash = sha256(form.file);
  const existing = await findByHash(ctx, f.source, hash);
  if (existing) return { statement: await present(ctx, existing), existing: true };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(form.file);
  } catch {
    throw invalidField('file', 'The file is not UTF-8 text: save it as CSV (UTF-8)');
  }
  const config = await sourceConfig(ctx, f.source);
  const rules = f.rules ?? config.rules;
  const t0 = performance.now();
  const parsed = readStatement(text, config.mapping);
  const t1 = performance.now();
  if (!parsed.ok) throw invalid({ file: parsed.errors });
  const startDate = f.start_date ?? dayOf(Math.min(...parsed.lines.map((l) => l.at)));
  const endDate = f.end_date ?? dayOf(Math.max(...parsed.lines.map((l) => l.at)));
  const from = Date.parse(startDate);
  const to = Date.parse(endDate) + DAY_MS;
  const windowMs = rules.window_hours * HOUR_MS;
  const movements = await ledgerMovements(ctx, f.source, new Date(from - windowMs), new Date(to + windowMs));
  const t2 = performance.now();
  const result = matchStatement(
    parsed.lines,
    movements,
    {
      tolerance: rules.tolerance,
      windowMs,
      reference: rules.reference,
      oneToMany: rules.one_to_many,
      absolute: config.mapping.sign === 'absolute',
    },
    { from, to },
  );
  const t3 = performance.now();
  const id = crypto.randomUUID();
  const items = [
    ...result.lines.map((r) => ({
      id: crypto.randomUUID(),
      status: r.matched ? 'matched' : 'missing_ours',
      line: r.line.line,
      at: new Date(r.line.at).toISOString(),
      amount: r.line.amount,
      reference: r.line.reference,
      ledger: r.movements.map(movementOut),
      reason: r.reason,
    })),
    ...result.missingTheirs.map((m) => ({
      id: crypto.randomUUID(),
      status: 'missing_theirs',
      line: null,
      at: new Date(m.at).toISOString(),
      amount: m.amount,
      reference: m.reference,
      ledger: [movementOut(m)],
      reason: null,
    })),
  ];
  const matched = result.lines.filter((r) => r.matched).length;
  const row: StatementRow = {
    id,
    source: f.source,
    fileName: form.name,
    contentHash: hash,
    startDate,
    endDate,
    lineCount: parsed.lines.length,
    mapping: config.mapping as StatementMapping & Record<string, unknown>,
    rules: rules as StatementRules & Record<string, unknown>,
    matched,
    missingOurs: result.lines.length - matched,
    missingTheirs: result.missingTheirs.length,
    uploadedBy: by,
    createdAt: ctx.now(),
  };
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(statements).values(row);
      for (let i = 0; i < items.length; i += CHUNK)
        await tx.execute(sql`
          insert into statement_items (id, statement_id, status, line, at, amount, reference, ledger, reason)
          select x.id, ${id}, x.status, x.line, x.at, x.amount, x.reference, x.ledger, x.reason
            from jsonb_to_recordset(${JSON.stringify(items.slice(i, i + CHUNK))}::jsonb)
              as x(id uuid, status text, line int, at timestamptz, amount bigint, reference text, ledger jsonb, reason text)`);
    });
  } catch (e) {
    // The same file uploaded twice at once: the first one's statement is the answer.
    const first = isUnique(e) ? await findByHash(ctx, f.source, hash) : undefined;
    if (!first) throw e;
    return { statement: await present(ctx, first), existing: true };
  }
  const t4 = performance.now();
  ctx.log.info(
    {
      lines: parsed.lines.length,
      movements: movements.length,
      read: t1 - t0,
      ledger: t2 - t1,
      match: t3 - t2,
      write: t4 - t3,
    },
    'statement matched',
  );
  return { statement: await present(ctx, row), existing: false };
}

async function findByHash(ctx: AppContext, source: string, hash: string) {
  const [s] = await ctx.db
    .select()
    .from(statements)
    .where(and(eq(statements.source, source), eq(statements.contentHash, hash)));
  return s;
}

export async function listStatements(ctx: AppContext, q: { source?: StatementSource; page: number; per_page: number }) {
  const where = q.source ? eq(statements.source, q.source) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(statements)
      .where(where)
      .orderBy(desc(statements.createdAt), desc(statements.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    ctx.db.select({ n: count() }).from(statements).where(where),
  ]);
  return { rows: await Promise.all(rows.map((r) => present(ctx, r))), total: total?.n ?? 0 };
}

export async function getStatement(ctx: AppContext, id: string): Promise<ApiStatement> {
  const [s] = await ctx.db.select().from(statements).where(eq(statements.id, id));
  if (!s) throw notFound('The statement');
  return present(ctx, s);
}

function lineOut(r: ItemRow & { resolverEmail: string | null }): ApiStatementLine {
  return {
    id: r.id,
    status: r.status as StatementLineStatus,
    line: r.line,
    at: r.at.toISOString(),
    amount: formatMoney(r.amount),
    reference: r.reference,
    ledger: r.ledger as ApiStatementLine['ledger'],
    reason: r.reason,
    resolved: r.resolvedAt ? { note: r.note ?? '', by: r.resolverEmail, at: r.resolvedAt.toISOString() } : null,
  };
}

/** A page of the result: the file's order, then the ledger's movements missing on theirs by time. */
export async function statementLines(ctx: AppContext, id: string, q: z.output<typeof statementLinesQuery>) {
  await getStatement(ctx, id);
  const where = and(
    eq(statementItems.statementId, id),
    q.status ? eq(statementItems.status, q.status) : undefined,
    q.open === true ? and(ne(statementItems.status, 'matched'), isNull(statementItems.resolvedAt)) : undefined,
    q.open === false
      ? sql`(${statementItems.status} = 'matched' or ${statementItems.resolvedAt} is not null)`
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ item: statementItems, resolverEmail: users.email })
      .from(statementItems)
      .leftJoin(users, eq(users.id, statementItems.resolvedBy))
      .where(where)
      .orderBy(sql`${statementItems.line} asc nulls last`, statementItems.at, statementItems.id)
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    ctx.db.select({ n: count() }).from(statementItems).where(where),
  ]);
  return { rows: rows.map((r) => lineOut({ ...r.item, resolverEmail: r.resolverEmail })), total: total?.n ?? 0 };
}

/** Settles an unmatched item with a note, once; a matched line needs none. */
export async function resolveLine(
  ctx: AppContext,
  id: string,
  lineId: string,
  note: string,
  by: string,
): Promise<ApiStatementLine> {
  const now = ctx.now();
  const [done] = await ctx.db
    .update(statementItems)
    .set({ note, resolvedBy: by, resolvedAt: now })
    .where(
      and(
        eq(statementItems.id, lineId),
        eq(statementItems.statementId, id),
        ne(statementItems.status, 'matched'),
        isNull(statementItems.resolvedAt),
      ),
    )
    .returning();
  if (!done) {
    const [item] = await ctx.db
      .select()
      .from(statementItems)
      .where(and(eq(statementItems.id, lineId), eq(statementItems.statementId, id)));
    if (!item) throw notFound('The statement line');
    throw conflict(
      item.status === 'matched'
        ? 'This line is matched: there is nothing to resolve.'
        : 'This item is already resolved.',
    );
  }
  const [me] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, by));
  return lineOut({ ...done, resolverEmail: me?.email ?? null });
}
