import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, HTTP } from '../lib/http';
import { isAppScreen } from './spa';

/** No path the API or the web app answers comes near this; a longer one is a 414. */
const MAX_PATH = 2048;
/** Ids are UUIDs and names are short: a longer path parameter names nothing. */
const MAX_PARAM = 100;

/** The order methods are listed in an Allow header. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * What the routes do not answer, answered as HTTP says: a method an API path does not take is a
 * 405 with `Allow` (not a 404, which would tell a client the path is wrong), OPTIONS lists the
 * methods, a screen of the web app gets the app, and anything else is a JSON 404.
 */
export default fp(async (app) => {
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const m of [route.method].flat()) methods.add(m.toUpperCase());
  });
  // The API reads JSON, forms and multipart only; a text/plain body is the documented 415, not a
  // string handed to schemas that expect an object (a 422).
  app.removeContentTypeParser('text/plain');

  // A hook, so that the answer has the one error shape and every header, whichever route matched.
  app.addHook('onRequest', async (req) => {
    const pathname = req.url.split('?')[0]!;
    if (pathname.length > MAX_PATH) {
      const message = `The path is longer than ${MAX_PATH} characters.`;
      throw new AppError(HTTP.URI_TOO_LONG, message, message);
    }
    if (pathname.startsWith('/api/') && hasLongSegment(pathname)) throw notFoundError(req.method, pathname);
  });

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0]!;
    if (pathname.startsWith('/api/')) {
      const allowed = allowedMethods(app, methods, pathname);
      if (allowed.length && req.method === 'OPTIONS') {
        return reply
          .status(HTTP.NO_CONTENT)
          .header('allow', [...allowed, 'OPTIONS'].join(', '))
          .send();
      }
      if (allowed.length) {
        const message = `${req.method} is not allowed on ${pathname}: use ${allowed.join(', ')}.`;
        return reply
          .status(HTTP.METHOD_NOT_ALLOWED)
          .header('allow', allowed.join(', '))
          .send({ message, error: message });
      }
    } else if (
      app.hasDecorator('spaIndex') &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      isAppScreen(pathname)
    ) {
      return reply.status(HTTP.OK).type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return notFound(req, reply, pathname);
  });
});

const hasLongSegment = (pathname: string) => pathname.split('/').some((part) => part.length > MAX_PARAM);

function notFoundError(method: string, pathname: string) {
  const message = `No route for ${method} ${pathname}.`;
  return new AppError(HTTP.NOT_FOUND, message, message, { 'cache-control': 'no-store' });
}

function notFound(req: FastifyRequest, reply: FastifyReply, pathname: string) {
  const message = `No route for ${req.method} ${pathname}.`;
  return reply.status(HTTP.NOT_FOUND).header('cache-control', 'no-store').send({ message, error: message });
}

/** The methods some route takes on this path, by asking the router itself (ids, wildcards and all). */
function allowedMethods(app: FastifyInstance, methods: Set<string>, pathname: string): string[] {
  const found = [...methods].filter((method) => {
    const route = app.findRoute({ method, url: pathname });
    // The web app's catch-all (`/*`, whose `*` is the whole path) takes GETs anywhere: not an API route.
    return route !== null && !route.params['*']?.startsWith('api/');
  });
  return found.sort((a, b) => rank(a) - rank(b));
}

const rank = (m: string) => (ORDER.includes(m) ? ORDER.indexOf(m) : ORDER.length);
