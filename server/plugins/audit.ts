import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { isStaff } from '@shared/contract';
import { type AuditRow, auditLog } from '../db/schema';
import '../modules/approvals/replay';

type Described = { action: string; objectType: string; objectId?: string | null };
type Body = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? null : String(v));

/** Staff actions by route, in words: what was done, to which kind of object, and which one. */
const ACTIONS: Record<string, (req: FastifyRequest, body: Body, params: Record<string, string>) => Described> = {
  'POST /wallet/approve-topup': (_r, b) => ({
    action: `topup.${b.action === 'deny' ? 'deny' : 'approve'}`,
    objectType: 'topup',
    objectId: str(b.topup_id),
  }),
  'POST /verification/decide': (_r, b) => ({
    action: `verification.${b.decision === 'reject' ? 'reject' : 'approve'}`,
    objectType: 'verification',
    objectId: str(b.verification_id),
  }),
  'POST /cards/flag/:id': (_r, _b, p) => ({ action: 'card.flag', objectType: 'card', objectId: p.id }),
  'POST /cards/unflag/:id': (_r, _b, p) => ({ action: 'card.unflag', objectType: 'card', objectId: p.id }),
  'POST /cards/suspend/:id': (_r, _b, p) => ({ action: 'card.suspend', objectType: 'card', objectId: p.id }),
  'POST /cards/unsuspend/:id': (_r, _b, p) => ({ action: 'card.unsuspend', objectType: 'card', objectId: p.id }),
  'POST /cards/change-status/:id': (_r, b, p) => ({
    action: b.status === 'deactivate' ? 'card.freeze' : 'card.unfreeze',
    objectType: 'card',
    objectId: p.id,
  }),
  'POST /cards/change-status-token': (_r, b) => ({
    action: b.status === 'deactivate' ? 'card.freeze' : 'card.unfreeze',
    objectType: 'card-token',
    objectId: str(b.card_token),
  }),
  'DELETE /cards/:id': (_r, _b, p) => ({ action: 'card.delete', objectType: 'card', objectId: p.id }),
  'POST /cards/withdraw-funds': (_r, b) => ({ action: 'card.withdraw', objectType: 'card', objectId: str(b.card) }),
  'POST /cards/add-funds': (_r, b) => ({ action: 'card.fund', objectType: 'card', objectId: str(b.card) }),
  'POST /sandbox/authorizations': (_r, b) => ({
    action: 'sandbox.authorization',
    objectType: 'card',
    objectId: str(b.card_id),
  }),
  'POST /sandbox/authorizations/:id/reverse': (_r, _b, p) => ({
    action: 'sandbox.reverse',
    objectType: 'card-transaction',
    objectId: p.id,
  }),
  'POST /sandbox/authorizations/:id/settle': (_r, _b, p) => ({
    action: 'sandbox.settle',
    objectType: 'card-transaction',
    objectId: p.id,
  }),
  'POST /disputes/:id/submit': (_r, _b, p) => ({ action: 'dispute.submit', objectType: 'dispute', objectId: p.id }),
  'POST /sandbox/disputes/:id/resolve': (_r, b, p) => ({
    action: `sandbox.dispute_${b.outcome === 'won' ? 'won' : 'lost'}`,
    objectType: 'dispute',
    objectId: p.id,
  }),
  'PUT /cards/:id/controls': (_r, _b, p) => ({ action: 'card.controls', objectType: 'card', objectId: p.id }),
  'PUT /program/controls': () => ({ action: 'program.controls', objectType: 'program-controls', objectId: '1' }),
  'PUT /fees/:id': (_r, b, p) => ({
    action: b.for === 'company' ? 'fee.override' : 'fee.update',
    objectType: 'fee',
    objectId: b.for === 'company' ? `${p.id}@${str(b.for_id)}` : p.id,
  }),
  'PUT /param/momo-sync': () => ({ action: 'momo.update', objectType: 'momo-settings', objectId: '1' }),
  'POST /account/admins': (_r, b) => ({ action: 'admin.create', objectType: 'admin', objectId: str(b.email) }),
  'PUT /account/admins/:id': (_r, _b, p) => ({ action: 'admin.update', objectType: 'admin', objectId: p.id }),
  'DELETE /account/admins/:id': (_r, _b, p) => ({ action: 'admin.delete', objectType: 'admin', objectId: p.id }),
  'DELETE /account/admins/:id/sessions': (_r, _b, p) => ({
    action: 'admin.sessions_end',
    objectType: 'admin',
    objectId: p.id,
  }),
  'POST /account/admins/:id/deactivate': (_r, _b, p) => ({
    action: 'admin.deactivate',
    objectType: 'admin',
    objectId: p.id,
  }),
  'POST /account/admins/:id/reactivate': (_r, _b, p) => ({
    action: 'admin.reactivate',
    objectType: 'admin',
    objectId: p.id,
  }),
  'DELETE /individuals/:id': (_r, _b, p) => ({
    action: 'individual.deactivate',
    objectType: 'individual',
    objectId: p.id,
  }),
  'POST /individuals/status': (_r, b) => ({
    action: 'individual.reactivate',
    objectType: 'individual',
    objectId: str(b.account),
  }),
  'DELETE /companies/:id': (_r, _b, p) => ({ action: 'company.deactivate', objectType: 'company', objectId: p.id }),
  'POST /company/status': (_r, b) => ({
    action: 'company.reactivate',
    objectType: 'company',
    objectId: str(b.account),
  }),
  'PUT /individuals/:id': (_r, _b, p) => ({ action: 'profile.update', objectType: 'admin', objectId: p.id }),
  'PUT /approval-policies': () => ({ action: 'approval.policies', objectType: 'approval-policies', objectId: null }),
  'POST /approvals/:id/approve': (_r, _b, p) => ({
    action: 'approval.approve',
    objectType: 'approval',
    objectId: p.id,
  }),
  'POST /approvals/:id/reject': (_r, _b, p) => ({ action: 'approval.reject', objectType: 'approval', objectId: p.id }),
  'PUT /statement-sources/:source': (_r, _b, p) => ({
    action: 'statement_source.update',
    objectType: 'statement-source',
    objectId: p.source,
  }),
  'POST /statements': (r) => ({
    action: 'statement.upload',
    objectType: 'statement',
    objectId: str(r.auditDetails?.statement_id),
  }),
  'POST /statements/:id/lines/:lineId/resolve': (_r, _b, p) => ({
    action: 'statement.resolve',
    objectType: 'statement-line',
    objectId: p.lineId,
  }),
  'PATCH /individuals/change-password/:id': (_r, _b, p) => ({
    action: 'profile.password',
    objectType: 'admin',
    objectId: p.id,
  }),
};

const SECRET = /pass|token|code|secret|cvc|cvv|card_number|pan/i;
// Logout is no staff action; a 2FA reset writes its own row, in its transaction.
const IGNORED = new Set(['DELETE /account/logout', 'POST /account/reset-2fa/:userId']);

function redact(body: unknown): Body {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const out: Body = {};
  for (const [k, v] of Object.entries(body as Body)) {
    if (SECRET.test(k)) continue;
    out[k] = typeof v === 'string' && v.length > 500 ? `${v.slice(0, 500)}…` : v;
  }
  return out;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the request's audit row was written with its work (an approval in one statement): the hook writes none */
    audited?: boolean;
  }
}

/**
 * The audit row of a staff mutation answered with `status`, or null when there is none to write (not staff, not a
 * mutation, a failure, a replay of an idempotent request, a route that is no staff action).
 */
export function auditRowOf(req: FastifyRequest, status: number): AuditRow | null {
  const me = req.user;
  if (!me || !isStaff(me.role) || !['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method)) return null;
  if (status >= 400 || req.idempotency?.replayed) return null;
  const route = `${req.method} ${(req.routeOptions.url ?? '').replace(/^\/api\/v1/, '')}`;
  const held = req.approvalRequested;
  if (IGNORED.has(route) && !held) return null;
  const body = redact(req.body);
  // A request held for approval did nothing yet: its row says it was asked for.
  const d = held
    ? { action: 'approval.request', objectType: 'approval', objectId: held.id }
    : (ACTIONS[route]?.(req, body, (req.params ?? {}) as Record<string, string>) ?? {
        action: route,
        objectType: 'request',
        objectId: null,
      });
  // Performed after approval: the actor is the maker, and the row names the checker.
  const approval = req.approval
    ? {
        approval_id: req.approval.approvalId,
        approved_by: req.approval.approverEmail,
        approved_by_id: req.approval.approverId,
      }
    : {};
  const extra = held ? { approval_action: held.action, summary: held.summary } : (req.auditDetails ?? {});
  return {
    id: crypto.randomUUID(),
    actorId: me.id,
    actorEmail: me.email,
    actorRole: me.role,
    action: d.action,
    objectType: d.objectType,
    objectId: d.objectId ?? null,
    details: { ...body, ...extra, ...approval, route },
    status,
    ip: req.ip,
    requestId: req.id,
  };
}

/**
 * Every successful staff mutation leaves an audit row (who, when, what, on which object), written
 * before the answer goes out. Replays of an idempotent request are not new actions.
 */
export default fp(async (app) => {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.audited) return payload;
    const row = auditRowOf(req, reply.statusCode);
    if (!row) return payload;
    try {
      await app.ctx.db.insert(auditLog).values({ ...row, createdAt: app.ctx.now() });
    } catch (err) {
      req.log.error({ err }, 'could not write the audit row');
    }
    return payload;
  });
});
