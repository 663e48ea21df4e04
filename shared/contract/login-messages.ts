/**
 * What the code step answers, told apart by the login screen: after a wrong code the person stays
 * on it (the same QR and key); an expired or used-up attempt sends them back to the password.
 * Its own module without zod, so the login screen's first load does not carry the schemas.
 */
export const LOGIN_MESSAGES = {
  badCode: 'The authentication code is incorrect or has already been used.',
  expired: 'Your login attempt has expired. Please log in again.',
} as const;

/** The `error` of an expired or used-up login attempt (the code step): a code, so no one compares the text. */
export const LOGIN_EXPIRED = 'login_expired';
