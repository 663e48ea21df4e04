import type { FastifyInstance } from 'fastify';
import { PERMISSIONS, ROLE_DESCRIPTIONS, ROLE_PERMISSIONS, STAFF_ROLE_KEYS, STAFF_ROLES } from '@shared/contract';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { data, fails, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

/** The staff roles and what each may do: the table the server enforces and the back-office reads. */
export default async function roleRoutes(app: FastifyInstance) {
  const roles = Object.entries(STAFF_ROLE_KEYS).map(([role, name]) => ({
    role,
    name,
    description: ROLE_DESCRIPTIONS[name],
    permissions: ROLE_PERMISSIONS[name].map((permission) => ({ permission, description: PERMISSIONS[permission] })),
  }));
  app.get(
    '/roles',
    {
      onRequest: authenticate(app.ctx, { roles: STAFF_ROLES }),
      schema: {
        tags: ['Administrators'],
        security: [{ bearer: [] }],
        operationId: 'listRoles',
        summary: 'List the staff roles with their permissions (staff)',
        response: {
          200: data(R.apiRole.array(), 'Every staff role, with what it may do.'),
          ...fails(STAFF),
        },
      },
    },
    async () => ok(roles),
  );
}
