import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { CUSTOMER_ROLES, type MomoDetails, type momoSyncBody } from '../../../shared/contract';
import { hundredthsToString } from '../../../shared/fees';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { momoSettings, users } from '../../db/schema';
import { invalidField } from '../../lib/http';

export type MomoSettingsRow = typeof momoSettings.$inferSelect;

export async function momoSettingsOf(db: DbOrTx): Promise<MomoSettingsRow> {
  const [row] = await db.select().from(momoSettings).where(eq(momoSettings.id, 1));
  if (!row) throw new Error('momo settings are missing (migration 0002 creates them)');
  return row;
}

export function toMomoDetails(s: MomoSettingsRow, full: boolean): MomoDetails {
  return {
    rate: s.rate,
    flat_fee: hundredthsToString(s.flatFee),
    network: s.network,
    momo_number: s.momoNumber,
    momo_name: s.momoName,
    ...(full ? { momo_alert_emails: s.alertEmails, entity_users: s.entityUsers } : {}),
  };
}

/** Users named in the settings confirm mobile-money payments: they carry the 'momo' entity. */
export async function isMomoAgent(db: DbOrTx, userId: string): Promise<boolean> {
  const s = await momoSettingsOf(db);
  return s.entityUsers.includes(userId);
}

function decimalToHundredths(v: string): number {
  const [w, f = ''] = v.split('.');
  return Number(w) * 100 + Number(f.padEnd(2, '0'));
}

export async function saveMomoSettings(ctx: AppContext, by: string, body: z.output<typeof momoSyncBody>) {
  if (body.entity_users.length) {
    const found = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, body.entity_users), inArray(users.role, [...CUSTOMER_ROLES]), isNull(users.deletedAt)));
    const missing = body.entity_users.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw invalidField('entity_users', `No customer has the id ${missing[0]}`);
  }
  const [saved] = await ctx.db
    .update(momoSettings)
    .set({
      momoName: body.momo_name,
      momoNumber: body.momo_number,
      network: body.network,
      rate: body.rate,
      flatFee: decimalToHundredths(body.flat_fee),
      alertEmails: body.momo_alert_emails,
      entityUsers: [...new Set(body.entity_users)],
      updatedBy: by,
      updatedAt: ctx.now(),
    })
    .where(eq(momoSettings.id, 1))
    .returning();
  return saved!;
}
