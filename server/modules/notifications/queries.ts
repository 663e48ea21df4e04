import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  type ApiNotification,
  type ApiNotificationSetting,
  NOTIFICATION_TYPES,
  type NotificationType,
  mailLocked,
  mailOnByDefault,
  typesFor,
} from '@shared/contract';
import type { DbOrTx } from '../../db/client';
import { notificationSettings, notifications } from '../../db/schema';

const present = (n: typeof notifications.$inferSelect): ApiNotification => ({
  id: n.id,
  type: n.type as NotificationType,
  title: n.title,
  body: n.body,
  link: n.link,
  read_at: n.readAt?.toISOString() ?? null,
  created_at: n.createdAt.toISOString(),
});

/** A page of one person's notifications, newest first (index on user, created_at, id). */
export async function listOwn(
  db: DbOrTx,
  userId: string,
  page: { limit: number; offset: number; unreadOnly: boolean },
) {
  const where = and(eq(notifications.userId, userId), page.unreadOnly ? isNull(notifications.readAt) : undefined);
  const [rows, [total], [unread]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(notifications).where(where),
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
  ]);
  return { rows: rows.map(present), total: Number(total?.n ?? 0), unread: Number(unread?.n ?? 0) };
}

export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(r?.n ?? 0);
}

/** Marks the caller's own notifications read (all, or those ids); ids that are not theirs match nothing. */
export async function markRead(db: DbOrTx, userId: string, ids: string[] | undefined, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids ? inArray(notifications.id, ids) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

export async function settingsOf(db: DbOrTx, userId: string, staff: boolean): Promise<ApiNotificationSetting[]> {
  const chosen = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  const mail = new Map(chosen.map((c) => [c.type, c.mail]));
  return typesFor(staff).map((type) => ({
    type,
    label: NOTIFICATION_TYPES[type].label,
    group: NOTIFICATION_TYPES[type].group,
    mail: mailLocked(type) || (mail.get(type) ?? mailOnByDefault(type)),
    locked: mailLocked(type),
  }));
}

export async function saveSettings(db: DbOrTx, userId: string, mail: Array<[NotificationType, boolean]>, now: Date) {
  if (!mail.length) return;
  await db
    .insert(notificationSettings)
    .values(mail.map(([type, on]) => ({ userId, type, mail: on, updatedAt: now })))
    .onConflictDoUpdate({
      target: [notificationSettings.userId, notificationSettings.type],
      set: { mail: sql`excluded.mail`, updatedAt: now },
    });
}
