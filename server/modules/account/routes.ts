import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptInviteBody,
  confirmBody,
  loginBody,
  enrolConfirmBody,
  newPasswordBody,
  recoverBody,
  resetTwoFactorBody,
  secondFactorCheckBody,
  registerCompanyBody,
  registerIndividualBody,
  resetBody,
} from '@shared/contract';
import { STAFF_ROLES } from '@shared/contract';
import { authenticate } from '../../plugins/auth';
import { HTTP, ok } from '../../lib/http';
import * as login from './login';
import { loginWithRecoveryCode } from './recovery-codes';
import * as reset from './reset';
import * as twoFactor from './two-factor';
import * as account from './service';
import { endSession } from './sessions';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

export default async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Account'];

  app.post('/account/individuals/register', { schema: { tags, body: registerIndividualBody } }, async (req, reply) =>
    reply.status(HTTP.CREATED).send(ok(await account.registerIndividual(ctx, req.body))),
  );

  app.post('/account/companies/register', { schema: { tags, body: registerCompanyBody } }, async (req, reply) =>
    reply.status(HTTP.CREATED).send(ok(await account.registerCompany(ctx, req.body))),
  );

  app.get(
    '/account/verify-email',
    { schema: { tags, querystring: z.object({ token: z.string().max(200).default('') }) } },
    async (req, reply) => {
      const email = req.query.token ? await account.verifyEmail(ctx, req.query.token) : null;
      if (email) return reply.redirect(`/onboarding/email-verified?identity=${encodeURIComponent(b64(email))}`);
      const message = 'This verification link is invalid or has expired. Log in to receive a new one.';
      return reply.redirect(`/onboarding/error?message=${encodeURIComponent(message)}`);
    },
  );

  app.post('/account/login', { schema: { tags, body: loginBody } }, async (req) =>
    ok(await login.login(ctx, req.body.email, req.body.password, meta(req))),
  );

  app.post('/account/auth-confirm', { schema: { tags, body: confirmBody } }, async (req) =>
    ok(await login.confirmLogin(ctx, 'setup', req.body.token, req.body.code, meta(req))),
  );

  app.post('/account/login-confirm', { schema: { tags, body: confirmBody } }, async (req) =>
    ok(await login.confirmLogin(ctx, 'verify', req.body.token, req.body.code, meta(req))),
  );

  app.post('/account/login-recover', { schema: { tags, body: recoverBody } }, async (req) =>
    ok(await loginWithRecoveryCode(ctx, req.body.token, req.body.recovery_code, meta(req))),
  );

  // Answers that must never be stored, and requests whose fingerprint would be a fast hash of a password.
  const signedIn = { onRequest: authenticate(ctx), config: { idempotency: 'none' as const } };
  app.get(
    '/account/two-factor',
    { onRequest: authenticate(ctx), schema: { tags, security: [{ bearer: [] }] } },
    async (req) => ok(await twoFactor.twoFactorStatus(ctx, req.user!)),
  );
  const security = [{ bearer: [] }];
  app.post(
    '/account/recovery-codes',
    { ...signedIn, schema: { tags, security, body: secondFactorCheckBody } },
    async (req) => ok(await twoFactor.regenerateRecoveryCodes(ctx, req.user!, req.body, req.ip)),
  );

  app.post(
    '/account/two-factor/enrol',
    { ...signedIn, schema: { tags, security, body: secondFactorCheckBody } },
    async (req) => ok(await twoFactor.startEnrolment(ctx, req.user!, req.body, req.ip)),
  );

  app.post(
    '/account/two-factor/enrol-confirm',
    { ...signedIn, schema: { tags, security, body: enrolConfirmBody } },
    async (req) => ok(await twoFactor.confirmEnrolment(ctx, req.user!, req.body.code)),
  );

  app.post(
    '/account/reset-2fa/:userId',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: { tags, security, params: z.object({ userId: z.string().uuid() }), body: resetTwoFactorBody },
    },
    async (req) =>
      ok(
        await twoFactor.resetTwoFactor(ctx, req.user!, req.params.userId, req.body.reason, {
          ip: req.ip,
          requestId: req.id,
        }),
      ),
  );

  app.post('/account/reset', { schema: { tags, body: resetBody } }, async (req, reply) =>
    reply.status(HTTP.ACCEPTED).send(ok(await reset.requestPasswordReset(ctx, req.body.email, meta(req)))),
  );

  app.post('/account/reset-password', { schema: { tags, body: newPasswordBody } }, async (req) =>
    ok(await reset.setPasswordFromLink(ctx, req.body)),
  );

  app.post('/account/accept-invite', { schema: { tags, body: acceptInviteBody } }, async (req) =>
    ok(await account.acceptInvite(ctx, req.body)),
  );

  app.delete(
    '/account/logout',
    { schema: { tags, security: [{ bearer: [] }] }, onRequest: authenticate(ctx) },
    async (req) => {
      await endSession(ctx, req.user!.sessionId);
      return ok({ message: 'You have been logged out.' });
    },
  );
}
