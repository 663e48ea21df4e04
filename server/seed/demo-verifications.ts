import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Tx } from '../db/client';
import { companies, uploads, users, verifications } from '../db/schema';
import { randomToken } from '../lib/crypto';
import type { AllowedType } from '../lib/upload-types';
import { createWallet } from '../modules/ledger/accounts';
import { samplePdf, samplePng } from './documents';
import { DEMO_IDS } from './ids';

const DAY = 86_400_000;

const PENDING_IDS = {
  individual: '00000000-0000-4000-8000-000000000007',
  companyAdmin: '00000000-0000-4000-8000-000000000008',
  company: '00000000-0000-4000-8000-0000000000c2',
} as const;

/** Verifications pending, approved and rejected, each with sample documents on disk. */
export async function seedDemoVerifications(tx: Tx, dataDir: string, now: Date, passwordHash: string) {
  const at = (days: number) => new Date(now.getTime() - days * DAY);
  const dir = path.join(dataDir, 'uploads');
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  async function file(
    accountId: string,
    by: string,
    field: string,
    name: string,
    data: Buffer,
    type: AllowedType,
    when: Date,
  ) {
    const storageName = `${randomToken(24)}.${type === 'application/pdf' ? 'pdf' : 'png'}`;
    writeFileSync(path.join(dir, storageName), data, { mode: 0o600 });
    const id = crypto.randomUUID();
    await tx.insert(uploads).values({
      id,
      accountId,
      uploadedBy: by,
      field,
      originalName: name,
      contentType: type,
      size: data.length,
      storageName,
      sha256: createHash('sha256').update(data).digest('hex'),
      createdAt: when,
    });
    return id;
  }

  async function kyc(
    userId: string,
    name: string,
    days: number,
    state: 'pending' | 'approved' | 'rejected',
    reason?: string,
  ) {
    const when = at(days);
    const documents = {
      address_proof: await file(
        userId,
        userId,
        'address_proof',
        'utility-bill.pdf',
        samplePdf('Electricity Company of Ghana - Bill', [
          `Customer: ${name}`,
          'Address: 12 Liberation Road, Accra',
          `Issued: ${when.toISOString().slice(0, 10)}`,
          'Amount due: GHS 214.50',
        ]),
        'application/pdf',
        when,
      ),
      selfie_image: await file(
        userId,
        userId,
        'selfie_image',
        'selfie-with-id.png',
        samplePng([29, 78, 216]),
        'image/png',
        when,
      ),
    };
    await tx.insert(verifications).values({
      id: crypto.randomUUID(),
      accountType: 'individual',
      accountId: userId,
      submittedBy: userId,
      state,
      data: { id_type: 'national-id', issued_id: `GHA-${700000000 + days}-1` },
      documents,
      reason: reason ?? null,
      decidedBy: state === 'pending' ? null : DEMO_IDS.admin,
      decidedAt: state === 'pending' ? null : at(days - 1),
      createdAt: when,
      updatedAt: state === 'pending' ? when : at(days - 1),
    });
  }

  async function kyb(
    companyId: string,
    by: string,
    companyName: string,
    days: number,
    state: 'pending' | 'approved' | 'rejected',
    reason?: string,
  ) {
    const when = at(days);
    const documents = {
      incorporation_certificate: await file(
        companyId,
        by,
        'incorporation_certificate',
        'certificate-of-incorporation.pdf',
        samplePdf("Registrar-General's Department", [
          `Certificate of Incorporation: ${companyName}`,
          'Company No. CS123456789',
          'Incorporated: 2015-06-30',
        ]),
        'application/pdf',
        when,
      ),
      shareholder_passport: await file(
        companyId,
        by,
        'shareholder_passport',
        'shareholder-passport.png',
        samplePng([15, 118, 110]),
        'image/png',
        when,
      ),
    };
    await tx.insert(verifications).values({
      id: crypto.randomUUID(),
      accountType: 'company',
      accountId: companyId,
      submittedBy: by,
      state,
      data: {
        registered_name: companyName,
        company_profile: 'Freight forwarding and logistics across West Africa.',
        tax_number: `C00${days}4567`,
        incorporation_date: '2015-06-30',
        operation_countries: ['GH', 'NG', 'CI'],
        publicly_listed: false,
      },
      documents,
      reason: reason ?? null,
      decidedBy: state === 'pending' ? null : DEMO_IDS.admin,
      decidedAt: state === 'pending' ? null : at(days - 1),
      createdAt: when,
      updatedAt: state === 'pending' ? when : at(days - 1),
    });
  }

  // Ama's first KYC was rejected: she may reapply.
  await kyc(
    DEMO_IDS.individual,
    'Ama Mensah',
    20,
    'rejected',
    'The utility bill is older than three months. Please upload a recent one.',
  );
  // The momo agent and Acme are verified.
  await kyc(DEMO_IDS.momoAgent, 'Kwame Asare', 95, 'approved');
  await kyb(DEMO_IDS.company, DEMO_IDS.companyAdmin, 'Acme Logistics Ltd', 78, 'approved');

  // Two customers waiting for review.
  await tx.insert(users).values({
    id: PENDING_IDS.individual,
    email: 'kojo@example.com',
    passwordHash,
    firstName: 'Kojo',
    lastName: 'Antwi',
    phoneNumber: '+233245551234',
    role: 'Individual',
    state: 'pending',
    emailVerifiedAt: at(9),
    passwordChangedAt: at(9),
    createdAt: at(9),
    updatedAt: at(2),
  });
  await createWallet(tx, PENDING_IDS.individual);
  await kyc(PENDING_IDS.individual, 'Kojo Antwi', 2, 'pending');
  await tx.insert(companies).values({
    id: PENDING_IDS.company,
    companyName: 'Sunrise Agro Ltd',
    companyWebsite: 'https://sunrise-agro.example.com',
    companyEmail: 'accounts@sunrise-agro.example.com',
    companyPhone: '+233322011223',
    state: 'pending',
    createdAt: at(6),
    updatedAt: at(1),
  });
  await tx.insert(users).values({
    id: PENDING_IDS.companyAdmin,
    email: 'abena@sunrise-agro.example.com',
    passwordHash,
    firstName: 'Abena',
    lastName: 'Ofori',
    phoneNumber: '+233244777888',
    role: 'Company-Admin',
    companyId: PENDING_IDS.company,
    emailVerifiedAt: at(6),
    passwordChangedAt: at(6),
    createdAt: at(6),
    updatedAt: at(1),
  });
  await createWallet(tx, PENDING_IDS.company);
  await kyb(PENDING_IDS.company, PENDING_IDS.companyAdmin, 'Sunrise Agro Ltd', 1, 'pending');
}
