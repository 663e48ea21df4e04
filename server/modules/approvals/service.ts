import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiApproval, type ApprovalAction, approvalPermission, can, isStaff } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import { KEY_IN_FLIGHT } from '../../db/idempotency-keys';
import { users } from '../../db/schema';
import { failpoint } from '../../lib/failpoints';
import { AppError, HTTP, forbidden, notFound } from '../../lib/http';
import { notify } from '../notifications/service';
import { approvalDecided } from './events';
import { type ApprovalRow, claim, expireDue, findApproval, reclaim, recordResult, rejectPending } from './queries';
import { REPLAY_HEADER, openGrant } from './replay';

/** A claim with no result after this long belonged to a process that died; another approval may resume it. */
const RESUME_AFTER_MS = 60_000;

export function present(r: ApprovalRow): ApiApproval {
  return {
    id: r.id,
    action: r.action as ApprovalAction,
    summary: r.summary,
    target_type: r.targetType,
    target_id: r.targetId,
    amount: r.amount === null ? null : formatMoney(r.amount),
    request: { method: r.method, path: r.path, body: r.body ?? null },
    state: r.state as ApiApproval['state'],
    initiator: { id: r.initiatorId, email: r.initiatorEmail },
    decided_by: r.decidedBy ? { id: r.decidedBy, email: r.decidedByEmail ?? '' } : null,
    reason: r.reason,
    result: r.resultStatus === null ? null : { status: r.resultStatus, body: r.resultBody ?? null },
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    decided_at: r.decidedAt?.toISOString() ?? null,
  };
}

export async function getApproval(ctx: AppContext, id: string): Promise<ApprovalRow> {
  await expireDue(ctx.db, ctx.now(), id);
  const r = await findApproval(ctx.db, id);
  if (!r) throw notFound('The approval');
  return r;
}

/** 409 with the approval's state as `error`, so a client can tell expired from already decided. */
function decided(r: ApprovalRow): AppError {
  const message =
    r.state === 'expired'
      ? 'This request expired: it was not approved within 24 hours.'
      : r.state === 'approved' && r.resultStatus === null
        ? 'This request is being performed.'
        : `This request was already ${r.state === 'failed' ? 'approved (and refused)' : r.state}.`;
  return new AppError(HTTP.CONFLICT, message, r.state);
}

/** The maker may not check their own request, and the checker's role must hold the action. */
function mayDecide(me: AuthUser, r: ApprovalRow) {
  if (r.initiatorId === me.id) throw forbidden('You cannot decide your own request: another person must.');
  if (!can(me.role, approvalPermission(r.action as ApprovalAction)))
    throw forbidden('Your role may not perform this action, so it may not approve it.');
}

/** The approval's audit row names the maker beside the checker (its actor). */
const auditOf = (r: ApprovalRow) => ({
  approval_action: r.action,
  summary: r.summary,
  requested_by: r.initiatorEmail,
  requested_by_id: r.initiatorId,
});

interface Performed {
  status: number;
  body: unknown;
}

/** Performs the stored request once, as its maker, through the app: the action's own checks run again. */
async function perform(
  app: FastifyInstance,
  r: ApprovalRow,
  approver: { id: string; email: string },
): Promise<Performed> {
  const ctx = app.ctx;
  const [maker] = await ctx.db.select().from(users).where(eq(users.id, r.initiatorId));
  if (!maker || maker.deletedAt || maker.deactivatedAt || !isStaff(maker.role)) {
    const message = 'The person who asked is no longer active staff: the request was not performed.';
    return { status: HTTP.CONFLICT, body: { message, error: message } };
  }
  const grant = openGrant({
    user: {
      id: maker.id,
      email: maker.email,
      role: maker.role as AuthUser['role'],
      companyId: maker.companyId,
      // no session of theirs: a replay ends none and matches none
      sessionId: crypto.randomUUID(),
      via: 'session',
    },
    approval: { approvalId: r.id, approverId: approver.id, approverEmail: approver.email },
  });
  try {
    const res = await app.inject({
      method: r.method as 'POST',
      url: r.path,
      headers: {
        [REPLAY_HEADER]: grant.token,
        // the approval's id: a second performance after a crash answers the first one's answer
        'idempotency-key': r.id,
        ...(r.body === null ? {} : { 'content-type': 'application/json' }),
      },
      ...(r.body === null ? {} : { payload: JSON.stringify(r.body) }),
    });
    let body: unknown = null;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body };
  } finally {
    grant.close();
  }
}

const messageOf = (body: unknown) =>
  body && typeof body === 'object' && 'message' in body ? String((body as { message: unknown }).message) : null;

/**
 * Approves: one conditional update claims the request (of several approvals at once one wins,
 * the others 409), then the request is performed as its maker and its answer is the approval's.
 * A claim whose process died is resumed by a later approval; the Idempotency-Key makes that safe.
 */
export async function approve(app: FastifyInstance, req: FastifyRequest, id: string): Promise<Performed> {
  const ctx = app.ctx;
  const me = req.user!;
  const r = await getApproval(ctx, id);
  req.auditDetails = auditOf(r);
  mayDecide(me, r);
  const now = ctx.now();
  const claimed =
    (await claim(ctx.db, id, me, now)) ??
    (r.state === 'approved' && r.resultStatus === null
      ? await reclaim(ctx.db, id, now, new Date(now.getTime() - RESUME_AFTER_MS))
      : undefined);
  if (!claimed) throw decided((await findApproval(ctx.db, id)) ?? r);
  await failpoint(ctx, 'approval.after-claim');
  const approver = { id: claimed.decidedBy ?? me.id, email: claimed.decidedByEmail ?? me.email };
  const result = await perform(app, claimed, approver);
  // A 5xx performed nothing for sure, or may have: the claim stays open for a later approval to resume.
  if (result.status >= 500) return result;
  // Still in flight elsewhere (a resumed claim raced the original): that one records the answer.
  if (result.status === HTTP.CONFLICT && messageOf(result.body) === KEY_IN_FLIGHT)
    throw decided({ ...claimed, resultStatus: null });
  await ctx.db.transaction(async (tx) => {
    await recordResult(tx, id, result.status, result.body);
    const outcome = result.status >= 400 ? 'failed' : 'approved';
    await notify(
      tx,
      [claimed.initiatorId],
      approvalDecided(claimed, outcome, approver.email, messageOf(result.body)),
      now,
    );
  });
  return result;
}

export async function reject(ctx: AppContext, req: FastifyRequest, id: string, reason: string): Promise<ApprovalRow> {
  const me = req.user!;
  const r = await getApproval(ctx, id);
  req.auditDetails = auditOf(r);
  mayDecide(me, r);
  const now = ctx.now();
  const done = await ctx.db.transaction(async (tx) => {
    const row = await rejectPending(tx, id, me, reason, now);
    if (row) await notify(tx, [row.initiatorId], approvalDecided(row, 'rejected', me.email, reason), now);
    return row;
  });
  if (!done) throw decided((await findApproval(ctx.db, id)) ?? r);
  return done;
}
