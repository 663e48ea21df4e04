import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { RESPONSES, type RouteResponses, routeKey } from './responses';

export const API_PREFIX = '/api/v1';

export class UndocumentedRouteError extends Error {
  /** a failed check is the server's fault (without it Fastify would keep an error answer's own 4xx) */
  readonly statusCode = 500;
}

type OnSend = (req: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/**
 * Gives every /api/v1 route its documented responses (server/openapi/responses.ts) as it is
 * registered, so the OpenAPI document shows them and the serializer can check answers against
 * them. Register it before the API routes.
 *
 * A route without an entry stops the app in development and test, so a new route is documented
 * before it is used; in production it is logged and left undocumented. In test, an answer with a
 * status the route does not document fails too (5xx excepted).
 */
export default fp<{ env: Config['env'] }>(
  async (app, { env }) => {
    const strict = env !== 'production';

    app.addHook('onRoute', (route) => {
      if (route.url !== API_PREFIX && !route.url.startsWith(`${API_PREFIX}/`)) return;
      const methods = [route.method].flat().map(String);
      const keys = methods.map((m) => routeKey(m, route.url));
      const found = keys.map((k) => RESPONSES[k]);
      const own = route.schema?.response as RouteResponses | undefined;
      const missing = keys.filter((_k, i) => !found[i]);
      if (missing.length && !own) {
        const message = `No documented responses for ${missing.join(', ')}: add the route to server/openapi/responses.ts.`;
        if (strict) throw new UndocumentedRouteError(message);
        app.log.warn(message);
        return;
      }
      if (new Set(found).size > 1)
        throw new UndocumentedRouteError(
          `${keys.join(', ')} share one route: register one method per route to document them.`,
        );
      // A route's own response schemas (if any) win over the registry.
      const responses: RouteResponses = { ...(found[0] ?? {}), ...(own ?? {}) };
      route.schema = { ...route.schema, response: responses };
      // (a HEAD route arrives with its GET route's hooks, guard included)
      if (env === 'test' && !asArray(route.onSend).some((h) => GUARD in h))
        route.onSend = [...asArray(route.onSend), statusGuard(keys.join(', '), responses)];
    });
  },
  { name: 'openapi-responses' },
);

const asArray = (hooks: RouteOptions['onSend']): OnSend[] =>
  hooks ? ((Array.isArray(hooks) ? hooks : [hooks]) as OnSend[]) : [];

const GUARD = Symbol('documented status guard');

/** Test only: an answer whose status is not documented for the route fails, so the list stays complete. */
function statusGuard(route: string, responses: RouteResponses): OnSend {
  const documented = new Set(Object.keys(responses).map(Number));
  const guard: OnSend = async (_req, reply, payload) => {
    const status = reply.statusCode;
    if (status >= 500 || documented.has(status)) return payload;
    const message = `${route} answered ${status}, which server/openapi/responses.ts does not document for it.`;
    console.error(message);
    throw new UndocumentedRouteError(message);
  };
  return Object.assign(guard, { [GUARD]: true });
}
