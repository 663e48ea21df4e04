import { z } from 'zod';
import { APPROVAL_INTERVALS } from '../approval-intervals';
import { id, money, timestamp } from './blocks';

export const merchantCategory = z
  .strictObject({
    name: z.string().describe('The stable name controls use, e.g. gambling'),
    label: z.string().describe('What people read'),
    mccs: z.array(z.string().regex(/^\d{4}$/)).describe('The merchant category codes (ISO 18245) it groups'),
  })
  .meta({ id: 'MerchantCategory' });

export const cardControls = z
  .strictObject({
    card_id: id,
    allowed_categories: z.array(z.string()).describe('Only these categories may be paid (empty: any)'),
    blocked_categories: z.array(z.string()).describe('These categories are declined'),
    allowed_countries: z
      .array(z.string())
      .describe('Only merchants in these countries (ISO 3166-1 alpha-2; empty: any)'),
    blocked_countries: z.array(z.string()).describe('Merchants in these countries are declined'),
    per_transaction_limit: money.nullable().describe('The most one payment may take, or null'),
    max_approvals: z
      .strictObject({ count: z.number().int(), interval: z.enum(APPROVAL_INTERVALS) })
      .nullable()
      .describe('At most this many approved payments in each interval (UTC), or null'),
    updated_at: timestamp.nullable().describe('When they last changed; null while never set'),
  })
  .meta({ id: 'CardControls' });

export const programControls = z
  .strictObject({
    blocked_categories: z.array(z.string()).describe('Declined on every card (code program_blocked)'),
    blocked_countries: z.array(z.string()).describe('Merchants in these countries are declined on every card'),
    provisional_credit: z
      .boolean()
      .describe('A dispute sent to the issuer credits the card at once; the credit is taken back if it is lost'),
    updated_at: timestamp.nullable().describe('When a Super-Admin last changed them; null while the defaults hold'),
  })
  .meta({ id: 'ProgramControls' });
