import type { AppContext } from '../../context';
import type { AuthorizationHandler } from '../../issuer/port';
import { authorize, declinedByIssuer, increment } from './authorize';
import { clear, expire, forcePost, refund, reverse } from './lifecycle';
import { metrics } from '../../lib/metrics';
import { disputeResolved } from '../disputes/issuer';

const counted = <D extends Parameters<typeof metrics.cardAuthorization>[0]>(decision: D, asked: number): D => {
  metrics.cardAuthorization(decision, asked);
  return decision;
};

/**
 * The platform's side of every message the issuer brings about a card's payments: the decision on
 * an authorisation (authorize.ts) and each later step of its life (lifecycle.ts).
 */
export function authorizationHandler(ctx: AppContext): AuthorizationHandler {
  return {
    authorize: (token, req, ref, company) =>
      authorize(ctx, token, req, ref, company ?? null).then((d) => counted(d, req.amount)),
    declinedByIssuer: (token, req, reason, ref) =>
      declinedByIssuer(ctx, token, req, reason, ref).then((d) => counted(d, req.amount)),
    increment: (ref, stepId, amount) => increment(ctx, ref, stepId, amount),
    reverse: (ref, stepId, amount) => reverse(ctx, ref, stepId, amount),
    clear: (ref, stepId, amount, close) => clear(ctx, ref, stepId, amount, close),
    expire: (ref, stepId, days) => expire(ctx, ref, stepId, days),
    refund: (token, stepId, msg, original) => refund(ctx, token, stepId, msg, original),
    forcePost: (token, stepId, msg) => forcePost(ctx, token, stepId, msg),
    disputeResolved: (disputeId, stepId, outcome) => disputeResolved(ctx, disputeId, stepId, outcome),
  };
}
