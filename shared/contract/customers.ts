import { z } from 'zod';
import { pageQuery } from './fields';
import { CUSTOMER_STATES } from './lists';
import type { apiCompanyCustomer, apiIndividualCustomer } from './responses/customers';
import { dateRangeQuery } from './wallet';

export const customerListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    state: z.enum(CUSTOMER_STATES, { error: 'Unknown state' }).optional(),
    name: z.string().trim().max(100).optional(),
  }),
);

export const accountStatusBody = z.object({
  account: z.string({ error: 'Account is required' }).uuid('Account is required'),
  status: z.enum(['activate'], { error: 'Status must be activate' }),
});

export type ApiIndividualCustomer = z.infer<typeof apiIndividualCustomer>;
export type ApiCompanyCustomer = z.infer<typeof apiCompanyCustomer>;
/** A row of either customer list: screens showing both read the other kind's fields as optional. */
export type ApiCustomerRow = (ApiIndividualCustomer | ApiCompanyCustomer) &
  Partial<ApiIndividualCustomer & ApiCompanyCustomer>;
