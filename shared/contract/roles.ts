/** Every role, customers' first. Staff roles follow jobs (issue 33); permissions.ts says what each may do. */
export const ROLES = [
  'Individual',
  'Company-Admin',
  'Company-User',
  'Admin',
  'Super-Admin',
  'Compliance',
  'Finance',
  'Support',
  'Auditor',
] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES = [
  'Super-Admin',
  'Admin',
  'Compliance',
  'Finance',
  'Support',
  'Auditor',
] as const satisfies readonly Role[];
export type StaffRole = (typeof STAFF_ROLES)[number];
export const CUSTOMER_ROLES = ['Individual', 'Company-Admin', 'Company-User'] as const satisfies readonly Role[];

export const isStaff = (role: string | undefined): boolean => (STAFF_ROLES as readonly string[]).includes(role ?? '');
export const isCustomer = (role: string | undefined): boolean =>
  role === 'Individual' || role === 'Company-Admin' || role === 'Company-User';

/** Staff roles as the API spells them (`role` of /account/admins) and as the back-office names them. */
export const STAFF_ROLE_KEYS = {
  'super-admin': 'Super-Admin',
  admin: 'Admin',
  compliance: 'Compliance',
  finance: 'Finance',
  support: 'Support',
  auditor: 'Auditor',
} as const satisfies Record<string, StaffRole>;
export type StaffRoleKey = keyof typeof STAFF_ROLE_KEYS;
export const STAFF_ROLE_KEY_NAMES = Object.keys(STAFF_ROLE_KEYS) as [StaffRoleKey, ...StaffRoleKey[]];
export const staffRoleKey = (role: string): StaffRoleKey =>
  (Object.entries(STAFF_ROLE_KEYS).find(([, r]) => r === role)?.[0] as StaffRoleKey | undefined) ?? 'admin';

/** Verification states of a customer account. */
export const VERIFICATION_STATES = ['Unverified', 'pending', 'Verified'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** Company sub-user roles as the Users screen names them. */
export const COMPANY_USER_ROLES = { admin: 'Company-Admin', user: 'Company-User' } as const;
