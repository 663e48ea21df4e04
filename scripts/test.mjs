// npm test: lint, typecheck, unit, integration (PGlite; PostgreSQL too when TEST_DATABASE_URL is set) and
// end-to-end tests in Debian's Chromium, with the time of each stage. Every stage runs; the exit code says whether all passed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** One stage: a child process whose output streams through; resolves with whether it passed and how long it took. */
function run(name, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (code) => {
      const ok = code === 0;
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`=== ${name}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s ===\n`);
      resolve({ name, ok, seconds });
    });
  });
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
const wants = (stage) => !only || only === stage;
const started = Date.now();
const node = process.execPath;
const vitest = (project) => [bin('vitest', 'vitest.mjs'), 'run', '--project', project];

// Lint, typecheck and the e2e build are independent single-threaded work: side by side on two cores.
const first = [];
if (wants('lint')) first.push(run('lint (Biome)', node, [bin('@biomejs/biome', 'bin/biome'), 'check', '.']));
if (wants('typecheck')) first.push(run('typecheck', node, [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.']));
const e2eReady = wants('e2e') && ensureChromium();
if (e2eReady) first.push(run('build (web app and server)', node, ['scripts/build-if-needed.mjs']));
const results = await Promise.all(first);

if (wants('vitest')) {
  results.push(await run('unit', node, vitest('unit')));
  results.push(await run('integration (PGlite)', node, vitest('integration')));
  if (process.env.TEST_DATABASE_URL)
    results.push(await run('integration (PostgreSQL)', node, vitest('integration-pg')));
}
if (wants('e2e')) {
  if (e2eReady)
    results.push(
      await run('end-to-end (Playwright, Chromium)', node, [bin('@playwright/test', 'cli.js'), 'test'], {
        CHROMIUM_PATH: CHROMIUM,
      }),
    );
  else results.push({ name: 'end-to-end (no Chromium)', ok: false, seconds: 0 });
}

const width = Math.max(...results.map((r) => r.name.length));
process.stdout.write('\nStage timing:\n');
for (const r of results)
  process.stdout.write(
    `  ${r.name.padEnd(width)}  ${r.ok ? 'passed' : 'FAILED'}  ${String(r.seconds).padStart(5)} s\n`,
  );
process.stdout.write(
  `  ${'total'.padEnd(width)}          ${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s\n`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
