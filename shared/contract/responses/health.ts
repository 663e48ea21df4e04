import { z } from 'zod';

export const health = z.strictObject({ status: z.literal('ok'), database: z.string().describe('pglite or postgres') });

export const ready = z.strictObject({
  status: z.literal('ready'),
  database: z.string().describe('pglite or postgres'),
  migrations: z.number().int().describe('migrations applied to the database: every one this version has'),
});
