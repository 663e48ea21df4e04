import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApprovalAction, AMOUNT_ACTIONS, can, isStaff } from '@shared/contract';
import type { AppContext } from '../../context';
import { HTTP, invalidField, ok } from '../../lib/http';
import { notify } from '../notifications/service';
import { approvalRequested } from './events';
import { checkersOf, insertApproval, policyOf } from './queries';
import { DESCRIBE, paramsOf } from './targets';

const TTL_MS = 24 * 3600_000;

/** Whether this staff request must wait for a second person. */
async function held(ctx: AppContext, action: ApprovalAction, role: string, amount: () => Promise<number | null>) {
  // Support may only ask for a reset: theirs always waits, whatever the policy.
  if (action === 'two_factor.reset' && can(role, 'two_factor.request') && !can(role, 'two_factor.reset')) return true;
  const p = await policyOf(ctx.db, action);
  if (!p.required) return false;
  if (p.minAmount === null || !AMOUNT_ACTIONS.includes(action)) return true;
  return ((await amount()) ?? 0) >= p.minAmount;
}

/**
 * The maker-checker gate of one action's route (issue 33), spread into its options. The body is
 * kept as sent (before validation turns amounts into cents) so that the approved request is the
 * same request. After validation, a staff request a policy covers is stored and answered 202
 * `{ approval_id, state: 'pending' }`; nothing else happens until a second person approves.
 * Customers and API clients are never held back; `applies` narrows an action to part of a route
 * (a top-up's approval, not its denial; a role change, not a name change).
 */
export function approvalGate(
  ctx: AppContext,
  action: ApprovalAction,
  applies: (body: Record<string, unknown>, req: FastifyRequest) => boolean | Promise<boolean> = () => true,
) {
  const raw = new WeakMap<FastifyRequest, unknown>();
  return {
    preValidation: async (req: FastifyRequest) => {
      if (req.body !== undefined) raw.set(req, structuredClone(req.body));
    },
    preHandler: async (req: FastifyRequest, reply: FastifyReply) => {
      const me = req.user;
      if (me?.via !== 'session' || !isStaff(me.role) || req.approval) return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (!(await applies(body, req))) return;
      let target: Awaited<ReturnType<(typeof DESCRIBE)[ApprovalAction]>> | undefined;
      const lookUp = async () => (target ??= await DESCRIBE[action](ctx, body, paramsOf(req)));
      if (!(await held(ctx, action, me.role, async () => (await lookUp()).amount))) return;
      if (action === 'admin.role_change' && body.password)
        throw invalidField('password', 'A role change that needs approval is sent on its own, without a new password');
      const t = await lookUp();
      const now = ctx.now();
      const id = crypto.randomUUID();
      const checkers = await checkersOf(ctx.db, action, me.id);
      await ctx.db.transaction(async (tx) => {
        await insertApproval(tx, {
          id,
          action,
          targetType: t.targetType,
          targetId: t.targetId,
          amount: t.amount,
          summary: t.summary,
          method: req.method,
          path: req.url,
          body: raw.get(req) ?? null,
          initiatorId: me.id,
          initiatorEmail: me.email,
          state: 'pending',
          createdAt: now,
          expiresAt: new Date(now.getTime() + TTL_MS),
        });
        await notify(tx, checkers, approvalRequested(id, t.summary, me.email), now);
      });
      req.approvalRequested = { id, action, summary: t.summary };
      return reply.status(HTTP.ACCEPTED).send(ok({ approval_id: id, state: 'pending' as const }));
    },
  };
}
