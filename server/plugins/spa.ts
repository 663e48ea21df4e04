import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';

/**
 * A path the web app itself answers (a screen, reloaded or typed in): outside the API, and not a
 * file. A missing file (`/assets/index-<old hash>.js` in a tab opened before a deploy, a `.ico`)
 * must be a 404, not index.html, which a browser would run as a broken script.
 */
export function isAppScreen(pathname: string): boolean {
  if (pathname.startsWith('/api/') || pathname === '/api' || pathname.startsWith('/assets/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[A-Za-z0-9]+$/.test(last);
}

/** Serves the built SPA from dist/: hashed assets cached for a year, index.html never. */
export default fp<{ root: string }>(async (app, opts) => {
  if (!existsSync(path.join(opts.root, 'index.html'))) {
    app.log.warn({ root: opts.root }, 'no built SPA found; run `npm run build`');
    return;
  }
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: true,
    index: false,
    // dist/ holds .br and .gz copies made at build time (scripts/precompress.mjs): sent as they are,
    // by Accept-Encoding, with Vary: Accept-Encoding; a file without a copy is sent as it is.
    preCompressed: true,
    // A directory (`/`, `/assets/`) is no file to send: the not-found handler decides (the app, or 404).
    allowedPath: (pathname) => !pathname.endsWith('/'),
    setHeaders(reply, file) {
      reply.header(
        'cache-control',
        file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.decorate('spaIndex', true);
});
