import { z } from 'zod';
import { id, money, timestamp } from './blocks';

export const apiBalanceMonitor = z
  .strictObject({
    id,
    account: z.string().describe('master:general, master:media, master:tokencard, fees, or a wallet id'),
    label: z.string().describe('The account as people read it'),
    currency: z.enum(['USD', 'USDT']),
    below: money.describe('The alert sounds when a posting takes the balance below this'),
    balance: money.describe("The account's balance now (a master balance: its cards' available balances)"),
    state: z
      .enum(['armed', 'below'])
      .describe('armed: the next crossing alerts; below: it alerted and waits for the balance to be back at or above'),
    crossings: z.number().int().describe('How many times it alerted'),
    fired_at: timestamp.nullable().describe('When it last alerted'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiBalanceMonitor' });

export const apiCardBalance = z
  .strictObject({
    available: money.describe('What the card may spend'),
    held: money.describe('What approved payments hold until they clear or are released'),
    ledger: money.describe('available + held'),
  })
  .meta({ id: 'ApiCardBalance' });
