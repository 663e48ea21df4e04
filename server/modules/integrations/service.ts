import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ApiCallbackDetails,
  type ApiClientCredentials,
  type callbackRequestBody,
  type createClientBody,
  isStaff,
} from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import { apiCredentials, apiCredentialsKey } from '../notifications/events';
import { mailSoon, notify } from '../notifications/service';
import type { DbOrTx } from '../../db/client';
import { apiClients, apiTokens, callbackEndpoints, companies } from '../../db/schema';
import { AppError, HTTP, conflict, forbidden, invalidField, notFound } from '../../lib/http';
import { randomToken, seal, sha256, unseal } from '../../lib/crypto';
import { newSigningSecret } from './webhooks';
import { callbackUrlProblem } from './ssrf';
import { dropDecisionEndpoint } from './decision';

/** Only the Company-Admin of a verified company manages its API access. */
async function assertApiAdmin(ctx: AppContext, me: AuthUser, companyId: string) {
  if (me.companyId !== companyId) throw notFound('The company');
  if (me.role !== 'Company-Admin' || me.via !== 'session')
    throw forbidden('Only the company admin manages API credentials.');
  const [c] = await ctx.db.select().from(companies).where(eq(companies.id, companyId));
  if (!c) throw notFound('The company');
  if (c.state !== 'Verified') throw forbidden('Complete your company verification (KYB) to use the API.');
}

/** Serialises changes to a company's credentials and callback (NO KEY UPDATE: inserts referencing it need not wait). */
async function lockCompany(tx: DbOrTx, companyId: string) {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('no key update');
}

async function activeClient(ctx: AppContext, companyId: string, db: DbOrTx = ctx.db) {
  const [c] = await db
    .select()
    .from(apiClients)
    .where(and(eq(apiClients.companyId, companyId), isNull(apiClients.revokedAt)))
    .orderBy(desc(apiClients.createdAt))
    .limit(1);
  return c;
}

export async function credentials(ctx: AppContext, me: AuthUser, companyId: string): Promise<ApiClientCredentials> {
  await assertApiAdmin(ctx, me, companyId);
  const c = await activeClient(ctx, companyId);
  if (!c) return { client_id: null, client_secret: null, revoked: true };
  return {
    client_id: c.clientId,
    client_secret: null,
    revoked: false,
    name: c.name,
    created_at: c.createdAt.toISOString(),
    last_used_at: c.lastUsedAt?.toISOString() ?? null,
  };
}

/** Who did it, as the company's admins are told: staff by role, a company admin by address. */
const actorName = (me: AuthUser) => (isStaff(me.role) ? 'Our support team' : me.email);

/** A client id and a 256-bit secret; the secret is in this answer only. */
export async function generate(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof createClientBody>,
): Promise<ApiClientCredentials> {
  await assertApiAdmin(ctx, me, body.identifier);
  const now = ctx.now();
  const clientId = `cw_${randomToken(12)}`;
  const secret = `cws_${randomToken(32)}`;
  await ctx.db.transaction(async (tx) => {
    // The company row serialises two Generate requests at once: one creates, the other sees it.
    await lockCompany(tx, body.identifier);
    if (await activeClient(ctx, body.identifier, tx))
      throw conflict('Credentials are already active. Revoke them before generating new ones.');
    await tx.insert(apiClients).values({
      id: crypto.randomUUID(),
      companyId: body.identifier,
      name: body.name,
      clientId,
      secretHash: sha256(secret),
      redirectUri: body.redirect_uri ?? null,
      createdBy: me.id,
      createdAt: now,
      updatedAt: now,
    });
    await notify(
      tx,
      { owner: body.identifier, companyAdmins: true },
      apiCredentials(clientId, 'generated', actorName(me)),
      now,
    );
  });
  mailSoon(ctx, [apiCredentialsKey(clientId, 'generated')]);
  return {
    client_id: clientId,
    client_secret: secret,
    revoked: false,
    name: body.name,
    created_at: now.toISOString(),
    last_used_at: null,
  };
}

/** Revoking ends the credentials and their tokens at once, and revokes the callback and the decision endpoint too. */
export async function revoke(ctx: AppContext, me: AuthUser, companyId: string) {
  await assertApiAdmin(ctx, me, companyId);
  const now = ctx.now();
  const keys = await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    const live = await tx
      .select({ id: apiClients.id, clientId: apiClients.clientId })
      .from(apiClients)
      .where(and(eq(apiClients.companyId, companyId), isNull(apiClients.revokedAt)));
    if (!live.length) throw conflict('There are no active credentials to revoke.');
    const ids = live.map((l) => l.id);
    await tx.update(apiClients).set({ revokedAt: now, updatedAt: now }).where(inArray(apiClients.id, ids));
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(inArray(apiTokens.clientId, ids), isNull(apiTokens.revokedAt)));
    await tx
      .update(callbackEndpoints)
      .set({ revokedAt: now, active: false, updatedAt: now })
      .where(and(eq(callbackEndpoints.companyId, companyId), isNull(callbackEndpoints.revokedAt)));
    await dropDecisionEndpoint(tx, companyId);
    for (const l of live)
      await notify(
        tx,
        { owner: companyId, companyAdmins: true },
        apiCredentials(l.clientId, 'revoked', actorName(me)),
        now,
      );
    return live.map((l) => apiCredentialsKey(l.clientId, 'revoked'));
  });
  mailSoon(ctx, keys);
  return 'Credentials revoked';
}

async function liveEndpoint(ctx: AppContext, companyId: string, db: DbOrTx = ctx.db) {
  const [e] = await db
    .select()
    .from(callbackEndpoints)
    .where(and(eq(callbackEndpoints.companyId, companyId), isNull(callbackEndpoints.revokedAt)));
  return e;
}

export async function callbackDetails(ctx: AppContext, me: AuthUser): Promise<ApiCallbackDetails> {
  if (!me.companyId) throw notFound('The company');
  await assertApiAdmin(ctx, me, me.companyId);
  const e = await liveEndpoint(ctx, me.companyId);
  if (!e) return { callback_url: null, active: false, signing_secret: null, disabled_reason: null };
  return {
    callback_url: e.url,
    active: e.active,
    signing_secret: unseal(e.signingSecret, ctx.config.encryptionKey),
    disabled_reason: e.disabledReason,
  };
}

/** Saves the callback URL (refusing private networks outside development), keeping its secret. */
export async function saveCallback(ctx: AppContext, me: AuthUser, body: z.output<typeof callbackRequestBody>) {
  if (!me.companyId) throw notFound('The company');
  await assertApiAdmin(ctx, me, me.companyId);
  const companyId = me.companyId;
  if (!(await activeClient(ctx, companyId)))
    throw new AppError(HTTP.CONFLICT, 'Generate API credentials before setting a callback URL.');
  const problem = await callbackUrlProblem(body.callback_url, ctx.config.env);
  if (problem) throw invalidField('callback_url', problem);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    // One live callback per company: saves (and a revocation of the credentials) take turns.
    await lockCompany(tx, companyId);
    if (!(await activeClient(ctx, companyId, tx)))
      throw new AppError(HTTP.CONFLICT, 'Generate API credentials before setting a callback URL.');
    const existing = await liveEndpoint(ctx, companyId, tx);
    if (existing) {
      await tx
        .update(callbackEndpoints)
        .set({ url: body.callback_url, active: body.active, disabledReason: null, updatedAt: now })
        .where(eq(callbackEndpoints.id, existing.id));
    } else {
      await tx.insert(callbackEndpoints).values({
        id: crypto.randomUUID(),
        companyId,
        url: body.callback_url,
        active: body.active,
        signingSecret: seal(newSigningSecret(), ctx.config.encryptionKey),
        createdAt: now,
        updatedAt: now,
      });
    }
  });
  return 'Callback Url set successfully';
}

export async function setCallbackActive(ctx: AppContext, me: AuthUser, activate: boolean) {
  if (!me.companyId) throw notFound('The company');
  await assertApiAdmin(ctx, me, me.companyId);
  const e = await liveEndpoint(ctx, me.companyId);
  if (!e) throw notFound('The callback URL');
  await ctx.db
    .update(callbackEndpoints)
    .set({ active: activate, disabledReason: null, updatedAt: ctx.now() })
    .where(eq(callbackEndpoints.id, e.id));
  return activate ? 'Callback Url activated successfully' : 'Callback Url deactivated successfully';
}

export async function revokeCallback(ctx: AppContext, me: AuthUser) {
  if (!me.companyId) throw notFound('The company');
  await assertApiAdmin(ctx, me, me.companyId);
  const e = await liveEndpoint(ctx, me.companyId);
  if (!e) throw notFound('The callback URL');
  await ctx.db
    .update(callbackEndpoints)
    .set({ revokedAt: ctx.now(), active: false, updatedAt: ctx.now() })
    .where(eq(callbackEndpoints.id, e.id));
  return 'Callback Url revoked successfully';
}
