import { defineConfig } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// One server per project (desktop, phone), each on its own fresh embedded database with demo data,
// so the two viewports never decide each other's top-ups; a server's mail lands in its DATA_DIR/mail.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'cw-e2e-'));
const firstPort = Number(process.env.E2E_PORT ?? 3107);
const PROJECTS = ['desktop', 'phone'] as const;
const portOf = (project: (typeof PROJECTS)[number]) => firstPort + PROJECTS.indexOf(project);
const baseURLOf = (project: (typeof PROJECTS)[number]) => `http://127.0.0.1:${portOf(project)}`;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Debian's headless Chromium when installed (npm test installs it), else its full browser; CHROMIUM_PATH names another.
const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

const TRACE_SNAPSHOTS = process.env.E2E_TRACE_SNAPSHOTS ? process.env.E2E_TRACE_SNAPSHOTS !== '0' : !process.env.CI;

export default defineConfig({
  testDir: 'tests/e2e',
  // Every screenshot is also an axe check (a second or two on a busy 2-core machine).
  timeout: 240_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  // Per port, so parallel runs (E2E_PORT) never wipe each other's results.
  outputDir: `test-results/e2e-${firstPort}`,
  use: {
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    // A failure keeps its trace: every action with its call log and, outside CI (or with E2E_TRACE_SNAPSHOTS=1),
    // the page's DOM and network around each action. Those snapshots, taken for every action of every journey and
    // thrown away when it passes, cost about an eighth of the suite's time, and a CI run's traces are not read (its
    // output is). No screencast: its frames were a third of the suite's CPU. The failure's screenshot is kept.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: TRACE_SNAPSHOTS },
    // The journeys run as a user who asked for less motion: the app then opens dialogs, drawers and lists at once
    // (antd's motion off). A click on a dialog still zooming in could land beside its button on a loaded machine.
    // accessibility.spec.ts checks both settings.
    reducedMotion: 'reduce',
    actionTimeout: 15_000,
  },
  projects: [
    { name: 'desktop', use: { baseURL: baseURLOf('desktop'), viewport: { width: 1366, height: 860 } } },
    {
      name: 'phone',
      use: {
        baseURL: baseURLOf('phone'),
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
        userAgent:
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      },
    },
  ],
  webServer: PROJECTS.map((project) => ({
    command: 'node scripts/start.mjs',
    url: `${baseURLOf(project)}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 240_000,
    // E2E_LOG_LEVEL=info shows each server's request log (which requests reached it, and how they ended).
    stdout: process.env.E2E_LOG_LEVEL ? ('pipe' as const) : ('ignore' as const),
    stderr: 'pipe' as const,
    env: {
      PORT: String(portOf(project)),
      HOST: '127.0.0.1',
      APP_URL: baseURLOf(project),
      DATA_DIR: path.join(process.env.E2E_DATA_DIR!, project),
      SEED: 'demo',
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // The demo's balances stay as seeded while journeys read them.
      RUN_JOBS: 'false',
      // …but deposits to the wallets' own addresses credit themselves, as in production (quickly here).
      CHAIN_WATCH: 'true',
      CHAIN_POLL_SECONDS: '2',
      // An issuer failure (a test holder, see server/issuer/sandbox.ts) becomes final within seconds.
      ISSUER_RETRY_SECONDS: '1,1',
    },
  })),
});
