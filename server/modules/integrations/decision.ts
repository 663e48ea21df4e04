import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { type ApiDecisionEndpoint, type decisionEndpointBody, isStaff } from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { apiClients, auditLog, companies, decisionEndpoints } from '../../db/schema';
import { seal, unseal } from '../../lib/crypto';
import { AppError, HTTP, forbidden, invalidField, notFound } from '../../lib/http';
import { callbackUrlProblem } from './ssrf';
import { newSigningSecret } from './webhooks';

/** Where a request came from, for the audit trail. */
export interface RequestInfo {
  ip: string;
  requestId: string;
  route: string;
}

const MANAGERS_ONLY = 'Only the admin of a verified company manages the authorisation decision endpoint.';

/**
 * The company whose endpoint this caller manages: its Company-Admin, in a session or through the company's API
 * token (an integration may move its own endpoint). Individuals, Company-Users and staff are refused.
 */
async function managedCompany(ctx: AppContext, me: AuthUser, db: DbOrTx = ctx.db): Promise<string> {
  if (isStaff(me.role) || me.role !== 'Company-Admin' || !me.companyId) throw forbidden(MANAGERS_ONLY);
  const [c] = await db.select({ state: companies.state }).from(companies).where(eq(companies.id, me.companyId));
  if (!c) throw notFound('The company');
  if (c.state !== 'Verified') throw forbidden('Complete your company verification (KYB) to use the API.');
  return me.companyId;
}

type Row = typeof decisionEndpoints.$inferSelect;

function present(ctx: AppContext, me: AuthUser, e: Row): ApiDecisionEndpoint {
  return {
    url: e.url,
    timeout_ms: e.timeoutMs,
    on_timeout: e.onTimeout === 'approve' ? 'approve' : 'decline',
    // the secret is the Company-Admin's to read on the API settings screen, as the callback's is
    signing_secret: me.via === 'session' ? unseal(e.signingSecret, ctx.config.encryptionKey) : null,
    last_failure: e.lastFailure,
    last_failure_at: e.lastFailureAt?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

async function endpointOf(db: DbOrTx, companyId: string) {
  const [e] = await db.select().from(decisionEndpoints).where(eq(decisionEndpoints.companyId, companyId));
  return e;
}

export async function decisionEndpoint(ctx: AppContext, me: AuthUser): Promise<ApiDecisionEndpoint | null> {
  const companyId = await managedCompany(ctx, me);
  const e = await endpointOf(ctx.db, companyId);
  return e ? present(ctx, me, e) : null;
}

const NO_CREDENTIALS = 'Generate API credentials before setting an authorisation decision endpoint.';

async function hasCredentials(db: DbOrTx, companyId: string) {
  const [c] = await db
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(and(eq(apiClients.companyId, companyId), isNull(apiClients.revokedAt)))
    .limit(1);
  return !!c;
}

function audit(
  tx: DbOrTx,
  me: AuthUser,
  req: RequestInfo,
  at: Date,
  action: string,
  companyId: string,
  details: object,
) {
  return tx.insert(auditLog).values({
    id: crypto.randomUUID(),
    actorId: me.id,
    actorEmail: me.email,
    actorRole: me.role,
    action,
    objectType: 'company',
    objectId: companyId,
    details: { ...details, via: me.via, route: req.route },
    status: HTTP.OK,
    ip: req.ip,
    requestId: req.requestId,
    createdAt: at,
  });
}

/** Sets (or changes) the endpoint, keeping its signing secret; a first one gets a new secret. */
export async function saveDecisionEndpoint(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof decisionEndpointBody>,
  req: RequestInfo,
): Promise<ApiDecisionEndpoint> {
  const companyId = await managedCompany(ctx, me);
  if (!(await hasCredentials(ctx.db, companyId))) throw new AppError(HTTP.CONFLICT, NO_CREDENTIALS);
  const problem = await callbackUrlProblem(body.url, ctx.config.env, 'The decision URL');
  if (problem) throw invalidField('url', problem);
  const now = ctx.now();
  const saved = await ctx.db.transaction(async (tx) => {
    // Takes turns with a revocation of the credentials, which removes the endpoint.
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('no key update');
    if (!(await hasCredentials(tx, companyId))) throw new AppError(HTTP.CONFLICT, NO_CREDENTIALS);
    const [row] = await tx
      .insert(decisionEndpoints)
      .values({
        companyId,
        url: body.url,
        timeoutMs: body.timeout_ms,
        onTimeout: body.on_timeout,
        signingSecret: seal(newSigningSecret(), ctx.config.encryptionKey),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: decisionEndpoints.companyId,
        set: { url: body.url, timeoutMs: body.timeout_ms, onTimeout: body.on_timeout, updatedAt: now },
      })
      .returning();
    await audit(tx, me, req, now, 'decision-endpoint.set', companyId, {
      url: body.url,
      timeout_ms: body.timeout_ms,
      on_timeout: body.on_timeout,
    });
    return row!;
  });
  return present(ctx, me, saved);
}

export async function removeDecisionEndpoint(ctx: AppContext, me: AuthUser, req: RequestInfo) {
  const companyId = await managedCompany(ctx, me);
  await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .delete(decisionEndpoints)
      .where(eq(decisionEndpoints.companyId, companyId))
      .returning({ url: decisionEndpoints.url });
    if (!gone.length) throw notFound('The authorisation decision endpoint');
    await audit(tx, me, req, ctx.now(), 'decision-endpoint.remove', companyId, { url: gone[0]!.url });
  });
  return 'Authorisation decision endpoint removed';
}

/** Revoked credentials take the endpoint with them (its requests were signed for them), in the revocation's transaction. */
export async function dropDecisionEndpoint(tx: DbOrTx, companyId: string) {
  await tx.delete(decisionEndpoints).where(eq(decisionEndpoints.companyId, companyId));
}
