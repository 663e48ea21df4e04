import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { approvalPolicies, companies, users } from '../db/schema';
import { hashPassword } from '../lib/passwords';
import { createWallet } from '../modules/ledger/accounts';
import { seedMomoSettings } from './demo-wallet';
import { seedDemoVerifications } from './demo-verifications';
import { DEMO_IDS } from './ids';

const DEMO_PASSWORD = 'Demo!2026pass';

const DEMO_ACCOUNTS = [
  { role: 'Super-Admin', email: 'super@cardwallet.example', name: 'Sena Agbeko' },
  { role: 'Super-Admin', email: 'super2@cardwallet.example', name: 'Akosua Frimpong (approves held requests)' },
  { role: 'Admin', email: 'admin@cardwallet.example', name: 'Yaw Darko' },
  { role: 'Compliance', email: 'compliance@cardwallet.example', name: 'Efia Owusu-Ansah' },
  { role: 'Finance', email: 'finance@cardwallet.example', name: 'Kwesi Appiah' },
  { role: 'Support', email: 'support@cardwallet.example', name: 'Adwoa Sarpong' },
  { role: 'Auditor', email: 'auditor@cardwallet.example', name: 'Nana Ampofo' },
  { role: 'Individual', email: 'ama@example.com', name: 'Ama Mensah' },
  { role: 'Company-Admin', email: 'kofi@acme.example.com', name: 'Kofi Boateng (Acme Logistics Ltd)' },
  { role: 'Company-User', email: 'efua@acme.example.com', name: 'Efua Owusu (Acme Logistics Ltd)' },
  {
    role: 'Individual',
    email: 'agent@cardwallet.example',
    name: 'Kwame Asare (momo agent: confirms mobile-money payments)',
  },
  { role: 'Individual', email: 'kojo@example.com', name: 'Kojo Antwi (KYC waiting for review)' },
  {
    role: 'Company-Admin',
    email: 'abena@sunrise-agro.example.com',
    name: 'Abena Ofori (Sunrise Agro Ltd, KYB waiting for review)',
  },
] as const;

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
}

/** Demo data for a new, empty system. Every account can log in with DEMO_PASSWORD. */
export async function seedDemo(db: Db, dataDir: string, now = new Date()): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const day = 86_400_000;
  const since = (days: number) => new Date(now.getTime() - days * day);
  const base = { passwordHash, emailVerifiedAt: since(90), passwordChangedAt: since(90), updatedAt: now };
  await db.transaction(async (tx) => {
    await tx.insert(companies).values({
      id: DEMO_IDS.company,
      companyName: 'Acme Logistics Ltd',
      companyWebsite: 'https://acme-logistics.example.com',
      companyEmail: 'finance@acme.example.com',
      companyPhone: '+233302123456',
      state: 'Verified',
      createdAt: since(80),
      updatedAt: now,
    });
    await tx.insert(users).values([
      {
        ...base,
        id: DEMO_IDS.superAdmin,
        email: 'super@cardwallet.example',
        firstName: 'Sena',
        lastName: 'Agbeko',
        phoneNumber: '+233201000001',
        role: 'Super-Admin',
        state: 'Verified',
        createdAt: since(120),
      },
      {
        ...base,
        id: DEMO_IDS.superAdmin2,
        email: 'super2@cardwallet.example',
        firstName: 'Akosua',
        lastName: 'Frimpong',
        phoneNumber: '+233201000007',
        role: 'Super-Admin',
        state: 'Verified',
        createdAt: since(115),
      },
      {
        ...base,
        id: DEMO_IDS.admin,
        email: 'admin@cardwallet.example',
        firstName: 'Yaw',
        lastName: 'Darko',
        phoneNumber: '+233201000002',
        role: 'Admin',
        state: 'Verified',
        createdAt: since(110),
      },
      ...(
        [
          ['compliance', 'Compliance', 'Efia', 'Owusu-Ansah', '03'],
          ['finance', 'Finance', 'Kwesi', 'Appiah', '04'],
          ['support', 'Support', 'Adwoa', 'Sarpong', '05'],
          ['auditor', 'Auditor', 'Nana', 'Ampofo', '06'],
        ] as const
      ).map(([key, role, firstName, lastName, n]) => ({
        ...base,
        id: DEMO_IDS[key],
        email: `${key}@cardwallet.example`,
        firstName,
        lastName,
        phoneNumber: `+2332010000${n}`,
        role,
        state: 'Verified' as const,
        createdAt: since(105),
      })),
      {
        ...base,
        id: DEMO_IDS.individual,
        email: 'ama@example.com',
        firstName: 'Ama',
        lastName: 'Mensah',
        phoneNumber: '+233241234567',
        role: 'Individual',
        state: 'Unverified',
        createdAt: since(85),
      },
      {
        ...base,
        id: DEMO_IDS.companyAdmin,
        email: 'kofi@acme.example.com',
        firstName: 'Kofi',
        lastName: 'Boateng',
        phoneNumber: '+233244000111',
        role: 'Company-Admin',
        companyId: DEMO_IDS.company,
        createdAt: since(80),
      },
      {
        ...base,
        id: DEMO_IDS.companyUser,
        email: 'efua@acme.example.com',
        firstName: 'Efua',
        lastName: 'Owusu',
        phoneNumber: '+233244000222',
        role: 'Company-User',
        companyId: DEMO_IDS.company,
        invitedBy: DEMO_IDS.companyAdmin,
        createdAt: since(70),
      },
      {
        ...base,
        id: DEMO_IDS.momoAgent,
        email: 'agent@cardwallet.example',
        firstName: 'Kwame',
        lastName: 'Asare',
        phoneNumber: '+233201000009',
        role: 'Individual',
        state: 'Verified',
        createdAt: since(100),
      },
    ]);
    for (const walletId of [DEMO_IDS.individual, DEMO_IDS.company, DEMO_IDS.momoAgent])
      await createWallet(tx, walletId);
    await seedMomoSettings(tx);
    // Four eyes on card withdrawals, fee changes and 2FA resets (issue 33); the rest stay off.
    await tx.insert(approvalPolicies).values(
      (['card.withdraw', 'fee.change', 'two_factor.reset'] as const).map((action) => ({
        action,
        required: true,
        minAmount: null,
        updatedAt: now,
        updatedBy: DEMO_IDS.superAdmin,
      })),
    );
    await seedDemoVerifications(tx, dataDir, now, passwordHash);
  });
}

export function demoAccountsText(): string {
  const w = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length as number));
  return [
    `Demo accounts (password for all: ${DEMO_PASSWORD}; the first login sets up 2FA):`,
    ...DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(14)} ${a.email.padEnd(w)}  ${a.name}`),
  ].join('\n');
}
