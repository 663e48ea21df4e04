import { z } from 'zod';
import { dayField } from './wallet';

/** The longest period one statement covers (a year, leap day included). */
const STATEMENT_MAX_DAYS = 366;
/** The most movements one statement lists; a busier period is refused with a shorter one suggested. */
export const STATEMENT_MAX_MOVEMENTS = 5000;

const DAY_MS = 86_400_000;

/** A required UTC day: "missing" and "not a date" get their own messages. */
const requiredDay = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .pipe(dayField(label).unwrap());

/**
 * GET /reports/wallet-statement: one wallet (required for everyone: a statement names its
 * account) and a period of UTC days, both inclusive, as every other report's start_date/end_date.
 */
export const walletStatementQuery = z
  .object({
    wallet: z.string({ error: 'Wallet is required' }).uuid('Enter a valid wallet id'),
    start_date: requiredDay('Start date'),
    end_date: requiredDay('End date'),
  })
  .superRefine((v, ctx) => {
    if (v.end_date < v.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'End date must be on or after the start date' });
    } else if ((Date.parse(v.end_date) - Date.parse(v.start_date)) / DAY_MS + 1 > STATEMENT_MAX_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['end_date'],
        message: `A statement covers at most ${STATEMENT_MAX_DAYS} days: choose a later start date or an earlier end date`,
      });
    }
  });
export type WalletStatementQuery = z.infer<typeof walletStatementQuery>;
