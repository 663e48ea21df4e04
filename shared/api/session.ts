import type { ApiCompany, ApiUser, SessionPayload } from '../contract';

/**
 * The signed-in session, persisted in local storage (the token base64-encoded, as the
 * original client stored it) and observable so React can re-render on change.
 */
export interface StoredSession {
  token: string;
  expiresAt: string;
  user: ApiUser;
  company: ApiCompany | null;
}

const KEY = 'cw.auth';
type Listener = () => void;
const listeners = new Set<Listener>();
let cache: StoredSession | null | undefined;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(): StoredSession | null {
  const raw = storage()?.getItem(KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Omit<StoredSession, 'token'> & { token: string };
    return { ...parsed, token: atob(parsed.token) };
  } catch {
    return null;
  }
}

export function getSession(): StoredSession | null {
  if (cache === undefined) cache = read();
  if (cache && new Date(cache.expiresAt).getTime() <= Date.now()) {
    clearSession();
    return null;
  }
  return cache;
}

function write(s: StoredSession | null) {
  cache = s;
  if (s) storage()?.setItem(KEY, JSON.stringify({ ...s, token: btoa(s.token) }));
  else storage()?.removeItem(KEY);
  for (const l of listeners) l();
}

export function setSessionFromPayload(p: SessionPayload) {
  write({ token: p.access_token, expiresAt: p.expires_at, user: p.user, company: p.company });
}

/** Keep the token, refresh who the user is (after a profile change or on app start). */
export function updateIdentity(user: ApiUser, company: ApiCompany | null) {
  const s = getSession();
  if (s) write({ ...s, user, company });
}

export function clearSession() {
  write(null);
}

export function subscribeSession(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

if (typeof window !== 'undefined') {
  // Another tab logged in or out.
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) {
      cache = read();
      for (const l of listeners) l();
    }
  });
}
