import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession } from '../api/session';

export function useSession() {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}
