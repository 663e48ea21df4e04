import { z } from 'zod';
import { moneyField } from '../money';
import { UUID_PATTERN } from './fields';
import type { apiBalanceMonitor } from './responses/monitors';

/** The master card balances a monitor may watch: the sum of the available balances of one purpose's cards. */
export const MASTER_BALANCE_ACCOUNTS = ['master:general', 'master:media', 'master:tokencard'] as const;
/** The fee account's name in a monitor. */
export const FEES_ACCOUNT = 'fees';

const ACCOUNT_MESSAGE = 'Enter master:general, master:media, master:tokencard, fees or a wallet id';

/** POST /balance-monitors: the account to watch and the balance below which it alerts. */
export const balanceMonitorBody = z.object({
  account: z
    .string({ error: 'Account is required' })
    .trim()
    .min(1, 'Account is required')
    .max(60, ACCOUNT_MESSAGE)
    .transform((v) => (UUID_PATTERN.test(v) ? v.toLowerCase() : v))
    .refine(
      (v) => (MASTER_BALANCE_ACCOUNTS as readonly string[]).includes(v) || v === FEES_ACCOUNT || UUID_PATTERN.test(v),
      ACCOUNT_MESSAGE,
    ),
  below: moneyField('Threshold is required'),
});

/**
 * `?at=` of the balance reads: an instant (ISO 8601 with a zone, e.g. 2026-06-30T23:59:59Z); the balance after the
 * last posting at or before it. Without it, the balance now.
 */
export const balanceAtQuery = z.object({
  at: z
    .string({ error: 'at must be a date and time such as 2026-06-30T23:59:59Z' })
    .trim()
    .pipe(z.iso.datetime({ offset: true, error: 'at must be a date and time such as 2026-06-30T23:59:59Z' }))
    .transform((v) => new Date(v))
    .optional(),
});

export type ApiBalanceMonitor = z.infer<typeof apiBalanceMonitor>;
