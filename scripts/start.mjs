// npm start: build what is not built (the web app, the compiled server), then run the compiled server in
// this process (so SIGTERM reaches it). No TypeScript is transpiled here: see scripts/build-server.mjs.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { serverEntry } from './build-server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// The launcher's only look at the server's configuration: an API-only server needs no web app built.
await buildIfNeeded({ spa: process.env.SERVE_SPA !== 'false' });
await import(pathToFileURL(serverEntry(root)).href);
