import { and, asc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { CUSTOMER_ROLES, type MomoDetails, type momoSyncBody } from '@shared/contract';
import { hundredthsToString } from '@shared/fees';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { companies, momoSettings, users } from '../../db/schema';
import { invalidField } from '../../lib/http';
import { containing } from '../../lib/like';

export type MomoSettingsRow = typeof momoSettings.$inferSelect;

export async function momoSettingsOf(db: DbOrTx): Promise<MomoSettingsRow> {
  const [row] = await db.select().from(momoSettings).where(eq(momoSettings.id, 1));
  if (!row) throw new Error('momo settings are missing (migration 0002 creates them)');
  return row;
}

export type MomoUser = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  company_name: string | null;
};

/** Customers a Super-Admin may name as confirmers, as a person picks them: by name and email. */
export async function momoUsers(db: DbOrTx, where: { ids?: string[]; search?: string }): Promise<MomoUser[]> {
  if (where.ids && !where.ids.length) return [];
  const pattern = where.search ? containing(where.search) : undefined;
  const rows = await db
    .select({
      id: users.id,
      first_name: users.firstName,
      last_name: users.lastName,
      email: users.email,
      company_name: companies.companyName,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        inArray(users.role, [...CUSTOMER_ROLES]),
        isNull(users.deletedAt),
        ...(where.ids ? [inArray(users.id, where.ids)] : []),
        ...(pattern
          ? [or(ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern), ilike(users.email, pattern))!]
          : []),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
    .limit(20);
  return rows;
}

export async function toMomoDetails(db: DbOrTx, s: MomoSettingsRow, full: boolean): Promise<MomoDetails> {
  const base = {
    rate: s.rate,
    flat_fee: hundredthsToString(s.flatFee),
    network: s.network,
    momo_number: s.momoNumber,
    momo_name: s.momoName,
  };
  if (!full) return base;
  const named = await momoUsers(db, { ids: s.entityUsers });
  return {
    ...base,
    momo_alert_emails: s.alertEmails,
    entity_users: s.entityUsers,
    confirmation_users: s.entityUsers.map((id) => named.find((u) => u.id === id)).filter((u): u is MomoUser => !!u),
  };
}

/** Users named in the settings confirm mobile-money payments: they carry the 'momo' entity. */
export async function isMomoAgent(db: DbOrTx, userId: string): Promise<boolean> {
  const s = await momoSettingsOf(db);
  return s.entityUsers.includes(userId);
}

export async function saveMomoSettings(ctx: AppContext, by: string, body: z.output<typeof momoSyncBody>) {
  if (body.entity_users.length) {
    const found = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(inArray(users.id, body.entity_users), inArray(users.role, [...CUSTOMER_ROLES]), isNull(users.deletedAt)),
      );
    const missing = body.entity_users.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) {
      // Picked by name, so named back: a customer deleted since the picker showed them.
      const [gone] = await ctx.db
        .select({ first: users.firstName, last: users.lastName, email: users.email })
        .from(users)
        .where(and(eq(users.id, missing[0]!), inArray(users.role, [...CUSTOMER_ROLES])));
      throw invalidField(
        'entity_users',
        gone
          ? `${gone.first} ${gone.last} (${gone.email}) is no longer a customer: remove them and save again`
          : `No customer has the id ${missing[0]}`,
      );
    }
  }
  const [saved] = await ctx.db
    .update(momoSettings)
    .set({
      momoName: body.momo_name,
      momoNumber: body.momo_number,
      network: body.network,
      rate: body.rate,
      flatFee: body.flat_fee,
      alertEmails: body.momo_alert_emails,
      entityUsers: [...new Set(body.entity_users)],
      updatedBy: by,
      updatedAt: ctx.now(),
    })
    .where(eq(momoSettings.id, 1))
    .returning();
  return saved!;
}
