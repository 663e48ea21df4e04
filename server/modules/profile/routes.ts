import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changePasswordBody, updateCompanyBody, updateIndividualBody } from '@shared/contract';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { profileOf } from '../account/sessions';
import * as profile from './service';

const idParams = z.object({ id: z.string().uuid() });

export default async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const common = { onRequest: authenticate(ctx) };
  const tags = ['Profile'];
  const security = [{ bearer: [] }];

  app.get(
    '/individuals/profile',
    { onRequest: authenticate(ctx, { api: true }), schema: { tags, security } },
    async (req) => ok(await profileOf(ctx, req.user!.id)),
  );

  app.put(
    '/individuals/:id',
    { ...common, schema: { tags, security, params: idParams, body: updateIndividualBody } },
    async (req) => ok(await profile.updateOwnDetails(ctx, req.user!, req.params.id, req.body)),
  );

  app.put(
    '/companies/:id',
    { ...common, schema: { tags, security, params: idParams, body: updateCompanyBody } },
    async (req) => ok(await profile.updateOwnCompany(ctx, req.user!, req.params.id, req.body)),
  );

  app.patch(
    '/individuals/change-password/:id',
    // No idempotency record: its fingerprint would be a fast hash of both passwords.
    {
      ...common,
      config: { idempotency: 'none' },
      schema: { tags, security, params: idParams, body: changePasswordBody },
    },
    async (req) => ok(await profile.changePassword(ctx, req.user!, req.params.id, req.body, req.ip)),
  );
}
