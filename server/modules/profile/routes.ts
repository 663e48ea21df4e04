import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { changePasswordBody, idParams, updateCompanyBody, updateIndividualBody } from '@shared/contract';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { profileOf } from '../account/sessions';
import * as profile from './service';
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
  SIGNED_IN_OR_API,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';

export default async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const common = { onRequest: authenticate(ctx) };
  const tags = ['Profile'];
  const security = [{ bearer: [] }];

  app.get(
    '/individuals/profile',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: {
        tags,
        security,
        operationId: 'getProfile',
        summary: 'Get the signed-in user, their company and verification',
        response: {
          200: data(R.profilePayload, 'The signed-in user, their company and their latest verification.'),
          ...fails(SIGNED_IN_OR_API, e(404, 'The user no longer exists.')),
        },
      },
    },
    async (req) => ok(await profileOf(ctx, req.user!.id)),
  );

  app.put(
    '/individuals/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        params: idParams,
        body: updateIndividualBody,
        operationId: 'updateProfile',
        summary: "Update the signed-in user's details",
        response: {
          200: data(R.profilePayload, 'Saved; the updated profile.'),
          ...fails(SIGNED_IN, PATH, BODY, IDEMPOTENT, e(404, 'The id is not the signed-in user.')),
        },
      },
    },
    async (req) => ok(await profile.updateOwnDetails(ctx, req.user!, req.params.id, req.body)),
  );

  app.put(
    '/companies/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        params: idParams,
        body: updateCompanyBody,
        operationId: 'updateCompany',
        summary: "Update the company's details",
        response: {
          200: data(R.profilePayload, 'Saved; the profile with the updated company.'),
          ...fails(
            SIGNED_IN,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, 'Only a company admin changes the company details.'),
            e(404, "The id is not the user's company."),
          ),
        },
      },
    },
    async (req) => ok(await profile.updateOwnCompany(ctx, req.user!, req.params.id, req.body)),
  );

  app.patch(
    '/individuals/change-password/:id',
    // No idempotency record: its fingerprint would be a fast hash of both passwords.
    {
      ...common,
      config: { idempotency: 'none' },
      schema: {
        tags,
        security,
        params: idParams,
        body: changePasswordBody,
        operationId: 'changePassword',
        summary: 'Change the password',
        response: {
          200: message(
            'Changed; every session of the user has ended, this one included. Idempotency-Key is ignored (passwords are never fingerprinted).',
          ),
          ...fails(
            SIGNED_IN,
            PATH,
            BODY,
            e(404, 'The id is not the signed-in user.'),
            e(422, 'The current password is incorrect, or the new one equals it.'),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req) => ok(await profile.changePassword(ctx, req.user!, req.params.id, req.body, req.ip)),
  );
}
