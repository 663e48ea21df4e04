import { z } from 'zod';

export const health = z.strictObject({ status: z.literal('ok'), database: z.string().describe('pglite or postgres') });

export const ready = z.strictObject({
  status: z.literal('ready'),
  database: z.string().describe('pglite or postgres'),
  migrations: z.number().int().describe('migrations applied to the database: every one this version has'),
  replica: z
    .strictObject({
      state: z
        .enum(['up', 'lagging', 'down'])
        .describe('up: lists and reports read it; lagging or down: they read the primary (this instance stays ready)'),
      lag_seconds: z.number().nullable().describe('how far behind the primary it is, as of the last check'),
    })
    .optional()
    .describe('the read replica (DATABASE_REPLICA_URL), when one is set'),
});
