import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, enrolConfirmBody, resetTwoFactorBody, secondFactorCheckBody, uuidParam } from '@shared/contract';
import * as R from '@shared/contract/responses';
import { ok } from '../../lib/http';
import {
  data,
  e,
  fails,
  message,
  BODY,
  IDEMPOTENT,
  PATH,
  RATE_LIMITED,
  SIGNED_IN,
  STAFF,
} from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import * as twoFactor from './two-factor';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';

/** Two-factor authentication once set up: its state, new recovery codes, a new authenticator, a staff reset. */
export function twoFactorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Account'];

  // Answers that must never be stored, and requests whose fingerprint would be a fast hash of a password.
  const signedIn = { onRequest: authenticate(ctx), config: { idempotency: 'none' as const } };
  app.get(
    '/account/two-factor',
    {
      onRequest: authenticate(ctx),
      schema: {
        tags,
        security: [{ bearer: [] }],
        operationId: 'getTwoFactorStatus',
        summary: 'Get the two-factor state and how many recovery codes are left',
        response: {
          200: data(R.twoFactorStatus, "The signed-in user's two-factor state and unused recovery codes."),
          ...fails(SIGNED_IN),
        },
      },
    },
    async (req) => ok(await twoFactor.twoFactorStatus(ctx, req.user!)),
  );
  const security = [{ bearer: [] }];
  app.post(
    '/account/recovery-codes',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: secondFactorCheckBody,
        operationId: 'regenerateRecoveryCodes',
        summary: 'Replace the recovery codes with a new set',
        response: {
          200: data(
            R.recoveryCodesIssued,
            'A new set of recovery codes, shown this once; the old set stops working. Idempotency-Key is ignored: the answer is never stored.',
          ),
          ...fails(
            SIGNED_IN,
            BODY,
            e(409, 'Two-factor authentication is not set up.'),
            e(422, 'The password, the code or the recovery code (then used up) is wrong.'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await twoFactor.regenerateRecoveryCodes(ctx, req.user!, req.body, req.ip)),
  );

  app.post(
    '/account/two-factor/enrol',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: secondFactorCheckBody,
        operationId: 'startAuthenticatorEnrolment',
        summary: 'Start moving two-factor authentication to a new authenticator app',
        response: {
          200: data(
            R.authenticatorEnrolment,
            'A new authenticator key to scan; the current one works until enrol-confirm. Idempotency-Key is ignored.',
          ),
          ...fails(
            SIGNED_IN,
            BODY,
            e(409, 'Two-factor authentication is not set up.'),
            e(422, 'The password, the code or the recovery code (then used up) is wrong.'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await twoFactor.startEnrolment(ctx, req.user!, req.body, req.ip)),
  );

  app.post(
    '/account/two-factor/enrol-confirm',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: enrolConfirmBody,
        operationId: 'confirmAuthenticatorEnrolment',
        summary: 'Confirm the new authenticator app with its code',
        response: {
          200: message('The new authenticator replaces the old one; every other session of the user has ended.'),
          ...fails(
            SIGNED_IN,
            BODY,
            e(409, 'No new authenticator is waiting (none started, or it was over an hour ago).'),
            e(422, 'The code is not one the new authenticator shows.'),
          ),
        },
      },
    },
    async (req) => ok(await twoFactor.confirmEnrolment(ctx, req.user!, req.body.code)),
  );

  app.post(
    '/account/reset-2fa/:userId',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      ...approvalGate(ctx, 'two_factor.reset'),
      schema: {
        tags,
        security,
        params: z.object({ userId: uuidParam }),
        body: resetTwoFactorBody,
        operationId: 'resetTwoFactor',
        summary: "Reset a user's two-factor authentication (staff)",
        response: {
          200: message(
            "Reset: the user's key and recovery codes are gone, their sessions ended, and they were told; their next login sets 2FA up again.",
          ),
          202: heldOr(),
          ...fails(
            STAFF,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, "Staff cannot reset their own 2FA, and only a Super-Admin resets another staff member's."),
            e(404, 'No such user.'),
            e(409, 'The user has not set up two-factor authentication yet.'),
          ),
        },
      },
    },
    async (req) =>
      ok(
        await twoFactor.resetTwoFactor(ctx, req.user!, req.params.userId, req.body.reason, {
          ip: req.ip,
          requestId: req.id,
          approved: !!req.approval,
        }),
      ),
  );
}
