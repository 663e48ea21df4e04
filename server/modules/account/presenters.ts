import type { ApiCompany, ApiUser, Role, VerificationState } from '@shared/contract';
import { isStaff } from '@shared/contract';
import type { CompanyRow, UserRow } from './queries';

export function walletIdOf(user: Pick<UserRow, 'id' | 'role' | 'companyId'>): string | null {
  if (user.role === 'Individual') return user.id;
  if (user.role === 'Company-Admin' || user.role === 'Company-User') return user.companyId;
  return null;
}

export function toApiUser(user: UserRow, company: CompanyRow | null, entities: string[] = []): ApiUser {
  const state = (isStaff(user.role) ? 'Verified' : company ? company.state : user.state) as VerificationState;
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    phone_number: user.phoneNumber,
    role: user.role as Role,
    state,
    entities,
    company_id: user.companyId,
    wallet_id: walletIdOf(user),
    created_at: user.createdAt.toISOString(),
  };
}

export function toApiCompany(c: CompanyRow | null): ApiCompany | null {
  if (!c) return null;
  return {
    id: c.id,
    company_name: c.companyName,
    company_website: c.companyWebsite,
    company_email: c.companyEmail,
    company_phone: c.companyPhone,
    state: c.state as VerificationState,
  };
}
