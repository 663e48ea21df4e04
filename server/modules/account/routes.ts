import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptInviteBody,
  confirmBody,
  loginBody,
  newPasswordBody,
  recoverBody,
  registerCompanyBody,
  registerIndividualBody,
  resetBody,
} from '@shared/contract';
import { authenticate } from '../../plugins/auth';
import { HTTP, ok } from '../../lib/http';
import * as login from './login';
import * as reset from './reset';
import * as account from './service';
import { endSession } from './sessions';
import { twoFactorRoutes } from './two-factor-routes';
import {
  data,
  e,
  fails,
  message,
  redirect,
  BODY,
  IDEMPOTENT,
  QUERY,
  RATE_LIMITED,
  SIGNED_IN,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

export default async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Account'];

  app.post(
    '/account/individuals/register',
    {
      schema: {
        tags,
        body: registerIndividualBody,
        operationId: 'registerIndividual',
        summary: 'Register an Individual',
        response: {
          201: data(R.individualRegistered, 'Registered; a verification link was mailed.'),
          ...fails(BODY, e(422, 'The email has already been taken.')),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await account.registerIndividual(ctx, req.body))),
  );

  app.post(
    '/account/companies/register',
    {
      schema: {
        tags,
        body: registerCompanyBody,
        operationId: 'registerCompany',
        summary: 'Register a company and its admin user',
        response: {
          201: data(
            R.companyRegistered,
            'The company and its admin user registered; a verification link was mailed to the admin.',
          ),
          ...fails(BODY, e(422, 'The email has already been taken.')),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await account.registerCompany(ctx, req.body))),
  );

  app.get(
    '/account/verify-email',
    {
      schema: {
        tags,
        querystring: z.object({ token: z.string().max(200).default('') }),
        operationId: 'verifyEmail',
        summary: 'Open the email verification link',
        response: {
          302: redirect(
            'The link from the verification mail: redirects (Location header) to /onboarding/email-verified (with already=1 when the link was opened before), or to /onboarding/error with a message when the link is invalid or has expired.',
          ),
          ...fails(QUERY),
        },
      },
    },
    async (req, reply) => {
      const verified = req.query.token ? await account.verifyEmail(ctx, req.query.token) : null;
      if (verified) {
        const identity = `identity=${encodeURIComponent(b64(verified.email))}`;
        return reply.redirect(`/onboarding/email-verified?${identity}${verified.already ? '&already=1' : ''}`);
      }
      const message = 'This verification link is invalid or has expired. Log in to receive a new one.';
      return reply.redirect(`/onboarding/error?message=${encodeURIComponent(message)}`);
    },
  );

  app.post(
    '/account/login',
    {
      schema: {
        tags,
        body: loginBody,
        operationId: 'logIn',
        summary: 'Log in with email and password (first step)',
        response: {
          200: data(
            R.loginChallenge,
            'Password accepted: confirm with the authenticator code (auth-confirm on the first login, else login-confirm).',
          ),
          ...fails(
            BODY,
            e(401, 'Invalid email or password.'),
            e(403, 'The account is deactivated, or its email address is not verified yet (a new link is mailed).'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await login.login(ctx, req.body.email, req.body.password, meta(req))),
  );

  app.post(
    '/account/auth-confirm',
    {
      schema: {
        tags,
        body: confirmBody,
        operationId: 'confirmTwoFactorSetup',
        summary: 'Set up two-factor authentication and sign in',
        response: {
          200: data(R.sessionPayload, 'Two-factor authentication set up; signed in.'),
          ...fails(
            BODY,
            e(401, 'The login attempt has expired, or the code is incorrect or already used.'),
            e(403, 'The account is deactivated or its email is not verified.'),
            e(409, 'Two-factor authentication is already set up: use login-confirm.'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await login.confirmLogin(ctx, 'setup', req.body.token, req.body.code, meta(req))),
  );

  app.post(
    '/account/login-confirm',
    {
      schema: {
        tags,
        body: confirmBody,
        operationId: 'confirmLogIn',
        summary: 'Confirm a login with the authenticator code',
        response: {
          200: data(R.sessionPayload, 'Signed in.'),
          ...fails(
            BODY,
            e(401, 'The login attempt has expired, or the code is incorrect or already used.'),
            e(403, 'The account is deactivated or its email is not verified.'),
            e(409, 'Two-factor authentication is not set up yet: use auth-confirm.'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await login.confirmLogin(ctx, 'verify', req.body.token, req.body.code, meta(req))),
  );

  app.post(
    '/account/login-recover',
    {
      schema: {
        tags,
        body: recoverBody,
        operationId: 'recoverLogIn',
        summary: 'Confirm a login with a recovery code instead of the authenticator',
        response: {
          200: data(
            R.sessionPayload,
            'Signed in with a recovery code, which is now used up (`recovery_codes_left` says how many remain).',
          ),
          ...fails(
            BODY,
            e(401, 'The login attempt has expired, or the recovery code is not valid or already used.'),
            e(403, 'The account is deactivated or its email is not verified.'),
            e(409, 'Two-factor authentication is not set up yet: use auth-confirm.'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await login.loginWithRecoveryCode(ctx, req.body.token, req.body.recovery_code, meta(req))),
  );

  // Registered in place, so the OpenAPI document keeps its order of paths.
  twoFactorRoutes(fastify);

  app.post(
    '/account/reset',
    {
      schema: {
        tags,
        body: resetBody,
        operationId: 'requestPasswordReset',
        summary: 'Ask for a password reset link',
        response: {
          202: data(
            R.resetRequested,
            'The same answer whether or not the email has an account; a reset link is mailed if it has.',
          ),
          ...fails(BODY, e(429, 'Too many reset requests from this address: wait for the Retry-After seconds.')),
        },
      },
    },
    async (req, reply) =>
      reply.status(HTTP.ACCEPTED).send(ok(await reset.requestPasswordReset(ctx, req.body.email, meta(req)))),
  );

  app.post(
    '/account/reset-password',
    {
      schema: {
        tags,
        body: newPasswordBody,
        operationId: 'resetPassword',
        summary: 'Set a new password from a reset link',
        response: {
          200: data(R.passwordSet, 'The password is set (every session of the account ends).'),
          ...fails(BODY, e(422, 'The link is invalid or has expired (`error.token`).')),
        },
      },
    },
    async (req) => ok(await reset.setPasswordFromLink(ctx, req.body)),
  );

  app.post(
    '/account/accept-invite',
    {
      schema: {
        tags,
        body: acceptInviteBody,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation to a company',
        response: {
          200: data(R.passwordSet, 'The invitation is accepted; the user can log in.'),
          ...fails(BODY, e(422, 'The invitation is invalid, has expired or was already accepted (`error.token`).')),
        },
      },
    },
    async (req) => ok(await account.acceptInvite(ctx, req.body)),
  );

  app.delete(
    '/account/logout',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        operationId: 'logOut',
        summary: 'End this session',
        response: { 200: message('This session has ended.'), ...fails(SIGNED_IN, IDEMPOTENT) },
      },
      onRequest: authenticate(ctx),
    },
    async (req) => {
      await endSession(ctx, req.user!.sessionId);
      return ok({ message: 'You have been logged out.' });
    },
  );
}
