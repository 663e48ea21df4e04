export const ROLES = ['Individual', 'Company-Admin', 'Company-User', 'Admin', 'Super-Admin'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES = ['Admin', 'Super-Admin'] as const satisfies readonly Role[];
export const CUSTOMER_ROLES = ['Individual', 'Company-Admin', 'Company-User'] as const satisfies readonly Role[];

export const isStaff = (role: string | undefined): boolean => role === 'Admin' || role === 'Super-Admin';
export const isCustomer = (role: string | undefined): boolean =>
  role === 'Individual' || role === 'Company-Admin' || role === 'Company-User';

/** Verification states of a customer account. */
export const VERIFICATION_STATES = ['Unverified', 'pending', 'Verified'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** Company sub-user roles as the Users screen names them. */
export const COMPANY_USER_ROLES = { admin: 'Company-Admin', user: 'Company-User' } as const;
