import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';

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
    setHeaders(reply, file) {
      reply.header(
        'cache-control',
        file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.decorate('spaIndex', true);
});
