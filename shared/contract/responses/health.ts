import { z } from 'zod';

export const health = z.strictObject({ status: z.literal('ok'), database: z.string().describe('pglite or postgres') });
