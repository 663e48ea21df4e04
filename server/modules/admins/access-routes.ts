import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, can, idParams, type Permission } from '@shared/contract';
import { forbidden, ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { data, e, fails, text, IDEMPOTENT, PATH, SIGNED_IN } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { endStaffSessions, setStaffActive } from './access';

/** The staff permission a route needs, checked after who is calling is known. */
const needs = (permission: Permission) => async (req: FastifyRequest) => {
  if (!can(req.user?.role, permission)) throw forbidden('You are not allowed to manage staff.');
};

const MANAGERS = [...SIGNED_IN, e(403, 'Staff holding `staff.manage` (Super-Admin) only.')];
const UNKNOWN = e(404, 'No such staff member (an unknown id, a customer, or a deleted account).');

/** The access review (issue 33): ending a staff member's sessions, deactivating and reactivating them. */
export default async function adminAccessRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = [authenticate(ctx, { roles: STAFF_ROLES }), needs('staff.manage')];
  const tags = ['Administrators'];
  const security = [{ bearer: [] }];

  app.delete(
    '/account/admins/:id/sessions',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'endAdminSessions',
        summary: "End a staff member's sessions (staff.manage)",
        description:
          'Ends every open session of the staff member and any sign-in under way, on every instance at once. ' +
          'On one’s own id, every other session ends and the one asking stays signed in.',
        response: {
          200: data(R.endedSessions, 'Ended: how many sessions were open.'),
          ...fails(MANAGERS, PATH, IDEMPOTENT, UNKNOWN),
        },
      },
    },
    async (req) => ok(await endStaffSessions(ctx, req.user!, req.params.id)),
  );

  for (const active of [false, true]) {
    const verb = active ? 'reactivate' : 'deactivate';
    app.post(
      `/account/admins/:id/${verb}`,
      {
        onRequest,
        schema: {
          tags,
          security,
          params: idParams,
          operationId: active ? 'reactivateAdmin' : 'deactivateAdmin',
          summary: active ? 'Reactivate a staff member (staff.manage)' : 'Deactivate a staff member (staff.manage)',
          description: active
            ? 'They may sign in again (with their role, password and second factor as before).'
            : 'Their sessions and sign-ins under way end on every instance at once, and they cannot sign in until reactivated.',
          response: {
            200: text(active ? 'Reactivated.' : 'Deactivated; their sessions ended.', `Admin ${verb}d.`),
            ...fails(
              MANAGERS,
              PATH,
              IDEMPOTENT,
              e(403, `You cannot ${verb} your own account.`),
              UNKNOWN,
              e(
                409,
                active
                  ? 'The staff member is already active.'
                  : 'The staff member is already deactivated, or is the last active Super-Admin.',
              ),
            ),
          },
        },
      },
      async (req) => ok(await setStaffActive(ctx, req.user!, req.params.id, active)),
    );
  }
}
