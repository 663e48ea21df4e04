import type { RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { OPERATION_PERMISSIONS, isStaff, permissionsOf } from '@shared/contract';
import { AUTH_OPTIONS, type AuthOptions } from './auth';

const API_PREFIX = '/api/v1';

class UnlistedOperationError extends Error {}

const authOf = (route: RouteOptions): AuthOptions | undefined => {
  const hooks = route.onRequest ? [route.onRequest].flat() : [];
  for (const h of hooks) if (AUTH_OPTIONS in h) return (h as unknown as Record<symbol, AuthOptions>)[AUTH_OPTIONS];
  return undefined;
};

/**
 * Stops the app at startup when an /api/v1 operation is missing from OPERATION_PERMISSIONS or is listed
 * against what its route admits: a new route says what staff need before anyone can call it.
 */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(`${API_PREFIX}/`)) return;
      const id = route.schema?.operationId;
      if (!id) return;
      const rule = OPERATION_PERMISSIONS[id];
      const name = `${[route.method].flat().join(',')} ${route.url} (${id})`;
      if (rule === undefined) throw new UnlistedOperationError(`${name} is not in OPERATION_PERMISSIONS.`);
      const auth = authOf(route);
      const admitsStaff = !!auth && (!auth.roles || auth.roles.some((r) => isStaff(r)));
      if (!auth && rule !== 'public')
        throw new UnlistedOperationError(`${name} takes no sign-in: list it as 'public'.`);
      if (auth && rule === 'public' && !auth.optional)
        throw new UnlistedOperationError(`${name} needs a sign-in: it is not 'public'.`);
      if (auth && !admitsStaff && rule !== 'customers')
        throw new UnlistedOperationError(`${name} is for customers only: list it as 'customers'.`);
      const needed = permissionsOf(rule);
      const says = needed.length ? `Staff need the permission ${needed.join(' or ')} (GET /roles).` : '';
      if (says && route.schema && !route.schema.description?.includes(says))
        route.schema.description = [route.schema.description, says].filter(Boolean).join('\n\n');
    });
  },
  { name: 'staff-permissions' },
);
