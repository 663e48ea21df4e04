import { z } from 'zod';
import { CUSTOMER_STATES } from '../lists';
import { id, money, timestamp, personFields } from './blocks';

const customerRowCommon = {
  state: z.enum(CUSTOMER_STATES),
  master_wallet: money.describe('The master wallet balance'),
  cards_count: z.number().int(),
  active_cards_count: z.number().int(),
  created_at: timestamp,
};

export const apiIndividualCustomer = z
  .strictObject({
    ...personFields,
    role: z.string(),
    ...customerRowCommon,
  })
  .meta({ id: 'ApiIndividualCustomer', description: 'An Individual in the customer database.' });

export const apiCompanyCustomer = z
  .strictObject({
    id,
    company_name: z.string(),
    company_website: z.string(),
    company_email: z.string(),
    company_phone: z.string(),
    users_count: z.number().int(),
    ...customerRowCommon,
  })
  .meta({ id: 'ApiCompanyCustomer', description: 'A company in the customer database.' });
