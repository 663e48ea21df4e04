import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32: no I, L, O, U

export function randomCode(length: number): string {
  const bytes = randomBytes(length);
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[bytes[i]! % 32];
  return s;
}

/** A human reference such as TOP-7K2M9QX4HD: prefix, then 10 random characters. */
export const newReference = (prefix: string) => `${prefix}-${randomCode(10)}`;
