import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type NotificationType, STAFF_ROLES, mailOnByDefault, mailLocked } from '../../../shared/contract';
import type { DbOrTx } from '../../db/client';
import { notificationSettings, notifications, users } from '../../db/schema';

export interface NotificationEvent {
  type: NotificationType;
  title: string;
  body: string;
  /** the recipient app's path of the screen it is about */
  link?: string | null;
  /** what happened, unique per event (e.g. `topup:<id>:approved`): notifying twice is a no-op */
  eventKey: string;
}

/**
 * Writes one notification per recipient inside the caller's transaction (so it exists exactly when
 * the event does), each marked for mail when the recipient wants mail of this type.
 */
export async function notify(tx: DbOrTx, recipients: string[], e: NotificationEvent, now: Date): Promise<void> {
  const ids = [...new Set(recipients)];
  if (!ids.length) return;
  const chosen = mailLocked(e.type)
    ? []
    : await tx
        .select({ userId: notificationSettings.userId, mail: notificationSettings.mail })
        .from(notificationSettings)
        .where(and(inArray(notificationSettings.userId, ids), eq(notificationSettings.type, e.type)));
  const wants = new Map(chosen.map((c) => [c.userId, c.mail]));
  await tx
    .insert(notifications)
    .values(
      ids.map((userId) => {
        const mail = mailLocked(e.type) || (wants.get(userId) ?? mailOnByDefault(e.type));
        return {
          id: crypto.randomUUID(),
          userId,
          type: e.type,
          title: e.title,
          body: e.body,
          link: e.link ?? null,
          eventKey: e.eventKey,
          mailState: mail ? 'pending' : null,
          mailNextAttemptAt: mail ? now : null,
          createdAt: now,
        };
      }),
    )
    .onConflictDoNothing();
}

/** Who hears about a wallet's or card's events: the Individual, or every live user of the company. */
export async function ownerRecipients(tx: DbOrTx, ownerId: string, only?: 'company-admins'): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(isNull(users.deletedAt), isNull(users.deactivatedAt), inArray(users.id, [ownerId])));
  if (rows.length) return rows.map((r) => r.id);
  const company = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.companyId, ownerId), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  return company.filter((u) => only !== 'company-admins' || u.role === 'Company-Admin').map((u) => u.id);
}

/** Every live staff member. */
export async function staffRecipients(tx: DbOrTx): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.role, [...STAFF_ROLES]), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  return rows.map((r) => r.id);
}
