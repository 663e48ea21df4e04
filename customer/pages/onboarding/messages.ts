import type { NavigateFunction } from 'react-router';

const KEY = 'cw.onboarding.message';

export function storeMessage(message: string) {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    /* storage unavailable: the screen falls back to its default text */
  }
}

export function readMessage(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function goToError(navigate: NavigateFunction, message: string) {
  storeMessage(message);
  navigate('/onboarding/error');
}
