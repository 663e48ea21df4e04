import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ApiDocument, ApiVerificationDetail, ApiVerificationRow } from '@shared/contract';
import type { DbOrTx } from '../../db/client';
import { companies, uploads, users, verificationCount, verifications } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { notFound } from '../../lib/http';
import { containing } from '../../lib/like';
import { keptRows } from '../../db/kept-counts';
import { newestFirst, pageAndTotal } from '../../lib/paging';

const person = alias(users, 'person');
const decider = alias(users, 'decider');

type Row = {
  v: typeof verifications.$inferSelect;
  first: string | null;
  last: string | null;
  email: string | null;
  companyName: string | null;
  companyEmail: string | null;
};

function toRow(r: Row): ApiVerificationRow {
  const individual = r.v.accountType === 'individual';
  return {
    id: r.v.id,
    account_id: r.v.accountId,
    account_type: r.v.accountType as ApiVerificationRow['account_type'],
    state: r.v.state as ApiVerificationRow['state'],
    name: individual ? `${r.first ?? ''} ${r.last ?? ''}`.trim() : (r.companyName ?? ''),
    email: individual ? (r.email ?? '') : (r.companyEmail ?? ''),
    individual: individual ? { first_name: r.first ?? '', last_name: r.last ?? '', email: r.email ?? '' } : null,
    company: individual ? null : { company_name: r.companyName ?? '', company_email: r.companyEmail ?? '' },
    reason: r.v.reason,
    created_at: r.v.createdAt.toISOString(),
    updated_at: r.v.updatedAt.toISOString(),
  };
}

const base = (db: DbOrTx) =>
  db
    .select({
      v: verifications,
      first: person.firstName,
      last: person.lastName,
      email: person.email,
      companyName: companies.companyName,
      companyEmail: companies.companyEmail,
    })
    .from(verifications)
    .leftJoin(person, eq(person.id, verifications.accountId))
    .leftJoin(companies, eq(companies.id, verifications.accountId));

export async function listVerifications(
  db: DbOrTx,
  accountType: 'individual' | 'company',
  f: { state?: string; name?: string; startDate?: string; endDate?: string },
  page: { limit: number; offset: number },
) {
  const w: SQL[] = [eq(verifications.accountType, accountType)];
  if (f.state) w.push(eq(verifications.state, f.state));
  const r = dayRange(f.startDate, f.endDate);
  if (r.from) w.push(gte(verifications.createdAt, r.from));
  if (r.to) w.push(lt(verifications.createdAt, r.to));
  if (f.name) {
    // Only the list's own kind of account is searched, by its trigram-indexed name: the matching accounts
    // first, then their verifications by account (an `or` across both joined tables could use neither index).
    const q = containing(f.name);
    w.push(
      inArray(
        verifications.accountId,
        accountType === 'individual'
          ? db
              .select({ id: users.id })
              .from(users)
              .where(ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, q))
          : db.select({ id: companies.id }).from(companies).where(ilike(companies.companyName, q)),
      ),
    );
  }
  const cond = and(...w);
  // By state alone (or all), the kept total's (migration 0054); with a name or a day range, counted.
  const counted = () =>
    f.name || r.from || r.to
      ? db.select({ n: count() }).from(verifications).where(cond)
      : db
          .select({ n: keptRows(verificationCount.rows) })
          .from(verificationCount)
          .where(
            and(
              eq(verificationCount.accountType, accountType),
              f.state ? eq(verificationCount.state, f.state) : undefined,
            ),
          );
  // The page's ids first, then names for those rows alone; with a name, after its total (paging.ts newestFirst).
  const pageOf = (matches?: number) =>
    base(db)
      .where(
        inArray(
          verifications.id,
          db
            .select({ id: verifications.id })
            .from(verifications)
            .where(cond)
            .orderBy(...newestFirst(verifications.createdAt, verifications.id, matches))
            .limit(page.limit)
            .offset(page.offset),
        ),
      )
      .orderBy(desc(verifications.createdAt), desc(verifications.id));
  const [rows, total] = await pageAndTotal(!!f.name, counted, pageOf);
  return { rows: rows.map(toRow), total };
}

/** Everything a reviewer needs: the submitted fields, the documents and the account's history. */
export async function verificationDetail(db: DbOrTx, id: string): Promise<ApiVerificationDetail> {
  const [r] = await base(db).where(eq(verifications.id, id));
  if (!r) throw notFound('The verification');
  const docIds = Object.values(r.v.documents);
  const files = docIds.length ? await db.select().from(uploads).where(inArray(uploads.id, docIds)) : [];
  const documents: ApiDocument[] = Object.entries(r.v.documents).flatMap(([field, fileId]) => {
    const f = files.find((x) => x.id === fileId);
    return f
      ? [
          {
            id: f.id,
            field,
            name: f.originalName,
            content_type: f.contentType,
            size: f.size,
            url: `/api/v1/files/${f.id}`,
          },
        ]
      : [];
  });
  const [by] = r.v.decidedBy
    ? await db
        .select({ first: decider.firstName, last: decider.lastName })
        .from(decider)
        .where(eq(decider.id, r.v.decidedBy))
    : [];
  const [account] =
    r.v.accountType === 'individual'
      ? await db.select({ state: users.state }).from(users).where(eq(users.id, r.v.accountId))
      : await db.select({ state: companies.state }).from(companies).where(eq(companies.id, r.v.accountId));
  const history = await db
    .select({
      id: verifications.id,
      state: verifications.state,
      reason: verifications.reason,
      createdAt: verifications.createdAt,
    })
    .from(verifications)
    .where(eq(verifications.accountId, r.v.accountId))
    .orderBy(desc(verifications.createdAt));
  const row = toRow(r);
  const data = r.v.data as Record<string, unknown>;
  const fileRef = (field: string) => documents.find((d) => d.field === field)?.url ?? null;
  const verificationsBlock =
    r.v.accountType === 'individual'
      ? {
          ...data,
          identification: `${data.id_type}:${data.issued_id}`,
          address: fileRef('address_proof'),
          selfie: fileRef('selfie_image'),
        }
      : {
          ...data,
          publicly_listed: data.publicly_listed ? 1 : 0,
          operation_countries: Array.isArray(data.operation_countries)
            ? (data.operation_countries as string[]).join(', ')
            : data.operation_countries,
          verification_meta: { submitted_at: row.created_at, documents: documents.length },
          incorporation_certificate: fileRef('incorporation_certificate'),
          shareholder_passport: fileRef('shareholder_passport'),
          license: fileRef('license'),
        };
  return {
    ...row,
    verification_state: account?.state ?? 'Unverified',
    ...(r.v.accountType === 'individual'
      ? { first_name: r.first ?? '', last_name: r.last ?? '' }
      : { company_name: r.companyName ?? '' }),
    verifications: verificationsBlock,
    documents,
    decided_by: by ? `${by.first} ${by.last}` : null,
    decided_at: r.v.decidedAt?.toISOString() ?? null,
    history: history.map((h) => ({
      id: h.id,
      state: h.state,
      reason: h.reason,
      created_at: h.createdAt.toISOString(),
    })),
  };
}
