// npm test: typecheck, unit, integration (PGlite; PostgreSQL too when TEST_DATABASE_URL is set)
// and end-to-end tests in Debian's Chromium. Every step runs; the exit code says whether all passed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(name, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  process.stdout.write(
    `=== ${name}: ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s ===\n`,
  );
  return ok;
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() === 0) {
    process.stdout.write("Chromium is missing: installing Debian's chromium package…\n");
    const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (update.status === 0 && install.status === 0 && existsSync(CHROMIUM)) return true;
  }
  process.stderr.write(
    `\nThe end-to-end tests need Chromium at ${CHROMIUM}.\n` +
      'Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to an installed Chromium).\n',
  );
  return false;
}

const only = process.argv[2];
const results = [];
if (!only || only === 'lint')
  results.push(['lint', run('lint (Biome)', process.execPath, [bin('@biomejs/biome', 'bin/biome'), 'check', '.'])]);
if (!only || only === 'typecheck')
  results.push([
    'typecheck',
    run('typecheck', process.execPath, [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.']),
  ]);
if (!only || only === 'vitest')
  results.push([
    'unit + integration',
    run('unit + integration', process.execPath, [bin('vitest', 'vitest.mjs'), 'run']),
  ]);
if (!only || only === 'e2e') {
  let ok = ensureChromium();
  if (ok) {
    await buildIfNeeded();
    ok = run('end-to-end (Playwright, Chromium)', process.execPath, [bin('@playwright/test', 'cli.js'), 'test'], {
      CHROMIUM_PATH: CHROMIUM,
    });
  }
  results.push(['end-to-end', ok]);
}

const failed = results.filter(([, ok]) => !ok);
process.stdout.write(`\nSummary: ${results.map(([n, ok]) => `${n} ${ok ? 'passed' : 'FAILED'}`).join(', ')}\n`);
process.exit(failed.length ? 1 : 0);
