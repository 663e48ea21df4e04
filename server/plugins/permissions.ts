import type { RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { OPERATION_PERMISSIONS, can, isStaff, permissionsOf, type StaffRole } from '@shared/contract';
import { forbidden } from '../lib/http';
import { AUTH_OPTIONS, type AuthOptions } from './auth';

const API_PREFIX = '/api/v1';

class UnlistedOperationError extends Error {}

/**
 * Whether a staff member may call this operation, as OPERATION_PERMISSIONS says: a 403 naming what is
 * missing, before any work. An operation the table does not list is refused (the startup check below
 * keeps that from happening).
 */
export function mayStaffCall(role: StaffRole | string, operationId: string | undefined): void {
  const rule = operationId ? OPERATION_PERMISSIONS[operationId] : undefined;
  if (rule === 'self' || rule === 'staff' || rule === 'public') return;
  if (rule === undefined || rule === 'customers') throw forbidden('This is not available to staff.');
  const needed = permissionsOf(rule);
  if (!needed.some((p) => can(role, p)))
    throw forbidden(`Your role (${role}) does not allow this: it needs the permission ${needed.join(' or ')}.`);
}

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
