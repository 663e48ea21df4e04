import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) };

const integration = (name: string, db: 'pglite' | 'postgres', groupOrder: number) => ({
  resolve: { alias },
  test: {
    name,
    sequence: { groupOrder },
    include: ['tests/integration/**/*.test.ts'],
    globalSetup: ['tests/integration/support/global-setup.ts'],
    env: { TEST_DB: db },
    // A ceiling for a slow, loaded machine (2 cores); the tests themselves take seconds.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks' as const,
    maxWorkers: 2,
    // A worker keeps the server's modules loaded from one file to the next: importing them again per file
    // was half the suite's CPU. Each file still builds its own app; on PGlite the worker's files share one
    // database, as every file shares one on PostgreSQL (support/app.ts). The server keeps no state in modules
    // beyond caches keyed by the objects it is given.
    isolate: false,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } },
      },
      integration('integration', 'pglite', 1),
      // Run the same suite on a PostgreSQL server when one is given.
      ...(process.env.TEST_DATABASE_URL ? [integration('integration-pg', 'postgres', 2)] : []),
    ],
  },
});
