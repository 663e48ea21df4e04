// Builds the SPA when dist/ is missing or older than its sources (a fingerprint of paths, sizes and mtimes),
// and the compiled server (build/server/, see build-server.mjs) when it is older than the server's sources.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildServer, serverIsCurrent } from './build-server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const inputs = [
  'index.html',
  'vite.config.ts',
  'package-lock.json',
  'scripts/build-if-needed.mjs',
  'scripts/precompress.mjs',
  'src',
  'customer',
  'admin',
  'shared',
  'public',
];
const stampFile = path.join(root, 'dist', '.build-stamp');

function walk(p, out) {
  const full = path.join(root, p);
  if (!existsSync(full)) return;
  const st = statSync(full);
  if (st.isDirectory()) {
    for (const e of readdirSync(full).sort()) walk(path.join(p, e), out);
  } else out.push(`${p}:${st.size}:${st.mtimeMs}`);
}

export function fingerprint() {
  const parts = [];
  for (const i of inputs) walk(i, parts);
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

const lockDir = path.join(root, 'node_modules', '.cache', 'cw-build.lock');

/** Two starts at once (parallel test runs) must not build into dist/ or build/ together. */
async function withLock(fn) {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  const until = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      const stale = existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > 5 * 60_000;
      if (stale) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > until) throw new Error('timed out waiting for another build');
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * `spa: false` leaves the web app alone (a server with SERVE_SPA=false does not serve it). Resolves to
 * what was built. The checks cost a stat per source file; nothing is read unless something changed.
 */
export async function buildIfNeeded({ force = false, spa = true } = {}) {
  const spaBuilt = spa && !force && spaIsCurrent();
  const serverBuilt = !force && serverIsCurrent(root);
  if ((spaBuilt || !spa) && serverBuilt) return { spa: false, server: false };
  return withLock(async () => ({
    spa: spa ? buildSpa({ force }) : false,
    server: force || !serverIsCurrent(root) ? await compileServer() : false,
  }));
}

async function compileServer() {
  process.stdout.write('Compiling the server (esbuild)…\n');
  await buildServer(root);
  return true;
}

function spaIsCurrent(fp = fingerprint()) {
  return (
    existsSync(path.join(root, 'dist', 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === fp
  );
}

function buildSpa({ force = false } = {}) {
  const fp = fingerprint();
  if (spaIsCurrent(fp) && !force) return false;
  process.stdout.write('Building the web app (vite build)…\n');
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
      // Always the production bundle: a start under NODE_ENV=test (the e2e servers) must not leave a
      // development build of React in dist/ for the next `npm start`.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(stampFile, fp);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildIfNeeded({ force: process.argv.includes('--force') });
