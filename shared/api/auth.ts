import type { AuthProvider } from '@refinedev/core';
import type { ApiCompany, ApiUser, LoginChallenge, SessionPayload } from '../contract';
// roles only: the contract's index brings every zod schema, which the login screen does not need
import { isCustomer, isStaff } from '../contract/roles';
import { apiData } from './client';
import { ApiError } from './errors';
import { clearSession, getSession, setSessionFromPayload, updateIdentity } from './session';

/** The login steps and session handling both apps use. */

export const homeFor = (role: string | undefined) => (isStaff(role) ? '/admin' : '/portal');

export const loginWithPassword = (email: string, password: string) =>
  apiData<LoginChallenge>('POST', '/account/login', { body: { email, password }, silent: true });

export async function confirmCode(mode: 'setup' | 'verify', token: string, code: string): Promise<SessionPayload> {
  const path = mode === 'setup' ? '/account/auth-confirm' : '/account/login-confirm';
  const payload = await apiData<SessionPayload>('POST', path, { body: { token, code }, silent: true });
  setSessionFromPayload(payload);
  return payload;
}

export async function recoverWithCode(token: string, recoveryCode: string): Promise<SessionPayload> {
  const payload = await apiData<SessionPayload>('POST', '/account/login-recover', {
    body: { token, recovery_code: recoveryCode },
    silent: true,
  });
  setSessionFromPayload(payload);
  return payload;
}

export const requestPasswordReset = (email: string) =>
  apiData<{ code: number; message: string }>('POST', '/account/reset', { body: { email }, silent: true });

export async function logout(): Promise<void> {
  if (getSession()) {
    try {
      await apiData('DELETE', '/account/logout', { silent: true });
    } catch {
      // The session is cleared locally whatever the server says.
    }
  }
  clearSession();
}

export async function refreshProfile(): Promise<{ user: ApiUser; company: ApiCompany | null } | null> {
  if (!getSession()) return null;
  const p = await apiData<{ user: ApiUser; company: ApiCompany | null }>('GET', '/individuals/profile', {
    silent: true,
  });
  updateIdentity(p.user, p.company);
  return p;
}

/** Refine's auth provider, limited to the roles of one app (the back-office: staff only). */
export function createAuthProvider(app: 'staff' | 'customer'): AuthProvider {
  const allowed = (role: string | undefined) => (app === 'staff' ? isStaff(role) : isCustomer(role));
  return {
    async login() {
      // Login is the shared /login screen's job; the back-office only checks the session.
      return { success: false, redirectTo: '/login' };
    },
    async check() {
      const s = getSession();
      if (s && allowed(s.user.role)) return { authenticated: true };
      return { authenticated: false, redirectTo: '/login', logout: !!s };
    },
    async logout() {
      await logout();
      return { success: true, redirectTo: '/login' };
    },
    async getIdentity() {
      const s = getSession();
      if (!s) return null;
      return { ...s.user, name: `${s.user.first_name} ${s.user.last_name}` };
    },
    async getPermissions() {
      return getSession()?.user.role ?? null;
    },
    async onError(error: unknown) {
      if (error instanceof ApiError && error.statusCode === 401) return { logout: true, redirectTo: '/login', error };
      return { error: error as Error };
    },
  };
}
