// npm test: lint, typecheck, unit, integration (PGlite; PostgreSQL too when TEST_DATABASE_URL is set) and
// end-to-end tests in Debian's Chromium, with the time of each stage. Every stage runs; the exit code says whether all passed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
// Debian's headless build of Chromium (package chromium-headless-shell, what Playwright itself runs for headless tests):
// the same engine without the browser's windows, about a quarter less CPU per journey. Debian's full chromium serves when
// the shell is not installed; CHROMIUM_PATH names another.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';
const chromiumPath = () => process.env.CHROMIUM_PATH ?? [HEADLESS_SHELL, FULL_CHROMIUM].find((p) => existsSync(p));

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

/** The Chromium to drive: installed from Debian's packages when missing and this user is root. */
function ensureChromium() {
  if (!process.env.CHROMIUM_PATH && !existsSync(HEADLESS_SHELL) && process.getuid?.() === 0) {
    process.stdout.write("Installing Debian's chromium-headless-shell package…\n");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (...args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
    apt('update');
    if (!apt('install', '-y', '--no-install-recommends', 'chromium-headless-shell') && !existsSync(FULL_CHROMIUM))
      apt('install', '-y', '--no-install-recommends', 'chromium');
  }
  const found = chromiumPath();
  if (found && existsSync(found)) return true;
  process.stderr.write(
    `\nThe end-to-end tests need Chromium (${process.env.CHROMIUM_PATH ?? `${HEADLESS_SHELL} or ${FULL_CHROMIUM}`}).\n` +
      'Install it with: sudo apt-get install -y chromium-headless-shell   (or set CHROMIUM_PATH to an installed Chromium).\n',
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
// npm run lint: Biome, then the import-loop check, then knip (unused exports, files and dependencies).
const lint = async () => {
  const steps = [
    ['lint (Biome)', [bin('@biomejs/biome', 'bin/biome'), 'check', '.']],
    ['lint (import loops)', ['scripts/check-imports.mjs']],
    ['lint (unused exports: knip)', [bin('knip', 'bin/knip.js'), '--no-progress']],
  ];
  const done = [];
  for (const [name, args] of steps) done.push(await run(name, node, args));
  return { name: 'lint', ok: done.every((r) => r.ok), seconds: done.reduce((s, r) => s + r.seconds, 0) };
};
if (wants('lint')) first.push(lint());
if (wants('typecheck')) first.push(run('typecheck', node, [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.']));
const e2eReady = wants('e2e') && ensureChromium();
if (e2eReady) first.push(run('build (web app and server)', node, ['scripts/build-if-needed.mjs']));
const results = await Promise.all(first);

if (wants('vitest')) {
  results.push(await run('unit', node, vitest('unit')));
  results.push(await run('integration (PGlite)', node, vitest('integration')));
  if (process.env.TEST_DATABASE_URL)
    results.push(await run('integration (PostgreSQL)', node, vitest('integration-pg')));
  else
    process.stdout.write(
      '\nintegration (PostgreSQL): not run, TEST_DATABASE_URL is not set; the PGlite run above named the tests that need it.\n',
    );
}
if (wants('e2e')) {
  if (e2eReady)
    results.push(
      await run('end-to-end (Playwright, Chromium)', node, [bin('@playwright/test', 'cli.js'), 'test'], {
        CHROMIUM_PATH: chromiumPath(),
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
