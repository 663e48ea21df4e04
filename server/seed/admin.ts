import { and, eq, isNull } from 'drizzle-orm';
import type { StaffRole } from '@shared/contract';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { hashPassword } from '../lib/passwords';

export interface NewStaff {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  role?: StaffRole;
  phoneNumber?: string;
}

/** Creates a staff account that can log in at once (2FA is set up at first login). */
export async function createStaff(db: Db, s: NewStaff, now = new Date()): Promise<{ id: string; created: boolean }> {
  const email = s.email.trim().toLowerCase();
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)));
  if (existing) return { id: existing.id, created: false };
  const id = crypto.randomUUID();
  await db.insert(users).values({
    id,
    email,
    passwordHash: await hashPassword(s.password),
    firstName: s.firstName ?? 'Platform',
    lastName: s.lastName ?? 'Administrator',
    phoneNumber: s.phoneNumber ?? null,
    role: s.role ?? 'Super-Admin',
    state: 'Verified',
    emailVerifiedAt: now,
    passwordChangedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return { id, created: true };
}
