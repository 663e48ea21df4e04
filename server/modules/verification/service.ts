import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ApiVerificationStatus,
  KYB_FILES,
  KYC_FILES,
  type decideBody,
  kybFields,
  kycFields,
} from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import { companies, users, verifications } from '../../db/schema';
import { AppError, HTTP, conflict, invalid, notFound, parseOr422, type FieldErrors } from '../../lib/http';
import { type ReceivedFile, storeUpload } from '../../lib/uploads';
import type { DbOrTx } from '../../db/client';
import { verificationDecided, verificationDecisionKey, verificationSubmitted } from '../notifications/events';
import { mailSoon, notify } from '../notifications/service';

/** The name staff know an account by: the Individual's full name or the company's. */
async function accountName(tx: DbOrTx, accountType: 'individual' | 'company', accountId: string): Promise<string> {
  if (accountType === 'company') {
    const [c] = await tx.select({ name: companies.companyName }).from(companies).where(eq(companies.id, accountId));
    return c?.name ?? 'A company';
  }
  const [u] = await tx
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.id, accountId));
  return u ? `${u.first} ${u.last}` : 'A customer';
}

type Files = Record<string, ReceivedFile>;

function requireFiles(files: Files, spec: Record<string, string | null>) {
  const errors: FieldErrors = {};
  for (const [field, message] of Object.entries(spec)) if (message && !files[field]) errors[field] = [message];
  if (Object.keys(errors).length) throw invalid(errors);
}

function assertMaySubmit(state: string) {
  if (state === 'pending') throw conflict('Your verification was submitted and is being reviewed.');
  if (state === 'Verified') throw conflict('Your account is already verified.');
}

async function submit(
  ctx: AppContext,
  me: AuthUser,
  accountType: 'individual' | 'company',
  accountId: string,
  data: Record<string, unknown>,
  files: Files,
) {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    // Lock the account row so two submissions cannot both pass the state check.
    const [row] =
      accountType === 'individual'
        ? await tx.select({ state: users.state }).from(users).where(eq(users.id, accountId)).for('update')
        : await tx.select({ state: companies.state }).from(companies).where(eq(companies.id, accountId)).for('update');
    if (!row) throw notFound('The account');
    assertMaySubmit(row.state);
    const documents: Record<string, string> = {};
    for (const f of Object.values(files)) documents[f.field] = await storeUpload(ctx, tx, f, accountId, me.id);
    const id = crypto.randomUUID();
    await tx.insert(verifications).values({
      id,
      accountType,
      accountId,
      submittedBy: me.id,
      state: 'pending',
      data,
      documents,
      createdAt: now,
      updatedAt: now,
    });
    await notify(
      tx,
      { staff: true },
      verificationSubmitted({
        id,
        kind: accountType === 'individual' ? 'KYC' : 'KYB',
        name: await accountName(tx, accountType, accountId),
      }),
      now,
    );
    if (accountType === 'individual')
      await tx.update(users).set({ state: 'pending', updatedAt: now }).where(eq(users.id, accountId));
    else await tx.update(companies).set({ state: 'pending', updatedAt: now }).where(eq(companies.id, accountId));
  });
}

/** An Individual's KYC: identification and two documents; the account becomes pending. */
export async function submitKyc(
  ctx: AppContext,
  me: AuthUser,
  userId: string,
  form: { fields: Record<string, string>; files: Files },
) {
  if (me.role !== 'Individual' || me.id !== userId) throw notFound('The account');
  const data = parseOr422(kycFields, form.fields);
  requireFiles(form.files, KYC_FILES);
  await submit(ctx, me, 'individual', userId, data, form.files);
  return 'KYC submitted. We will review it and let you know by email.';
}

/** A company's KYB, by its Company-Admin; the company becomes pending. */
export async function submitKyb(
  ctx: AppContext,
  me: AuthUser,
  companyId: string,
  form: { fields: Record<string, string>; files: Files },
) {
  if (me.companyId !== companyId) throw notFound('The company');
  if (me.role !== 'Company-Admin') throw new AppError(HTTP.FORBIDDEN, 'Only a company admin can submit the KYB.');
  const data = parseOr422(kybFields, form.fields);
  requireFiles(form.files, KYB_FILES);
  await submit(ctx, me, 'company', companyId, data, form.files);
  return 'KYB submitted. We will review it and let you know by email.';
}

/** Staff approve (→ Verified) or reject (→ Unverified, with a reason) a pending verification. */
export async function decide(ctx: AppContext, me: AuthUser, body: z.output<typeof decideBody>) {
  const now = ctx.now();
  const v = await ctx.db.transaction(async (tx) => {
    const [v] = await tx.select().from(verifications).where(eq(verifications.id, body.verification_id)).for('update');
    if (!v) throw notFound('The verification');
    if (v.state !== 'pending') throw conflict(`This verification was already ${v.state}.`);
    const approved = body.decision === 'approve';
    await tx
      .update(verifications)
      .set({
        state: approved ? 'approved' : 'rejected',
        reason: approved ? null : body.reason!,
        decidedBy: me.id,
        decidedAt: now,
        updatedAt: now,
      })
      .where(eq(verifications.id, v.id));
    const state = approved ? 'Verified' : 'Unverified';
    if (v.accountType === 'individual')
      await tx.update(users).set({ state, updatedAt: now }).where(eq(users.id, v.accountId));
    else await tx.update(companies).set({ state, updatedAt: now }).where(eq(companies.id, v.accountId));
    // KYB is the Company-Admins' business (Company-Users do not manage it); KYC the Individual's.
    const event = verificationDecided(
      { id: v.id, kind: v.accountType === 'individual' ? 'KYC' : 'KYB' },
      approved,
      body.reason,
    );
    await notify(tx, { owner: v.accountId, companyAdmins: true }, event, now);
    return v;
  });
  mailSoon(ctx, [verificationDecisionKey(v.id)]);
  return {
    message: body.decision === 'approve' ? 'Verification approved.' : 'Verification rejected.',
    state: body.decision === 'approve' ? ('approved' as const) : ('rejected' as const),
  };
}

/** The customer's latest verification, so screens can say where it stands and why it was rejected. */
export async function latestVerification(
  ctx: AppContext,
  accountId: string | null,
): Promise<ApiVerificationStatus | null> {
  if (!accountId) return null;
  const [v] = await ctx.db
    .select({
      state: verifications.state,
      reason: verifications.reason,
      createdAt: verifications.createdAt,
      decidedAt: verifications.decidedAt,
    })
    .from(verifications)
    .where(and(eq(verifications.accountId, accountId)))
    .orderBy(desc(verifications.createdAt))
    .limit(1);
  return v
    ? {
        state: v.state as ApiVerificationStatus['state'],
        reason: v.reason,
        submitted_at: v.createdAt.toISOString(),
        decided_at: v.decidedAt?.toISOString() ?? null,
      }
    : null;
}
