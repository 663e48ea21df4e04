import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { HTTP } from '../lib/http';
import type { RouteResponses } from './responses';

const API_PREFIX = '/api/v1';

class UndocumentedRouteError extends Error {
  /** a failed check is the server's fault (without it Fastify would keep an error answer's own 4xx) */
  readonly statusCode = 500;
}

type OnSend = (req: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/**
 * Checks, as each /api/v1 route is registered, that it declares its answers beside its handler
 * (`schema.response`, built with ./responses.ts): the OpenAPI document shows them and the
 * serializer checks answers against them. Register it before the API routes.
 *
 * A route without them stops the app in development and test, so a new route is documented
 * before it is used; in production it is logged and left undocumented. In test, an answer with a
 * status the route does not document fails too (5xx excepted).
 */
export default fp<{ env: Config['env'] }>(
  async (app, { env }) => {
    const strict = env !== 'production';

    app.addHook('onRoute', (route) => {
      if (route.url !== API_PREFIX && !route.url.startsWith(`${API_PREFIX}/`)) return;
      // (HEAD answers as GET, with its schema)
      const methods = [route.method].flat().map(String);
      const name = methods.map((m) => `${m} ${route.url}`).join(', ');
      const responses = route.schema?.response as RouteResponses | undefined;
      if (!responses) {
        const message = `No documented responses for ${name}: declare them in the route's schema.response.`;
        if (strict) throw new UndocumentedRouteError(message);
        app.log.warn(message);
        return;
      }
      if (methods.filter((m) => m !== 'HEAD').length > 1)
        throw new UndocumentedRouteError(`${name} share one route: register one method per route to document them.`);
      // (a HEAD route arrives with its GET route's hooks, guard included)
      if (env === 'test' && !asArray(route.onSend).some((h) => GUARD in h))
        route.onSend = [...asArray(route.onSend), statusGuard(name, responses)];
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
    // A 414 is the path's length, refused by plugins/routing.ts before any route's own work: no route lists it.
    if (status >= 500 || status === HTTP.URI_TOO_LONG || documented.has(status)) return payload;
    const message = `${route} answered ${status}, which its schema.response does not document.`;
    console.error(message);
    throw new UndocumentedRouteError(message);
  };
  return Object.assign(guard, { [GUARD]: true });
}
