import { generateSecret, generateURI } from 'otplib';
import { describe, expect, it } from 'vitest';
import { keyGroups, totpUri } from '@shared/totp';

/** The authenticator link the apps show and the QR the server draws describe the same key. */
describe('totpUri', () => {
  it('is the URI otplib writes for the issuer, the account and the key', () => {
    for (const email of ['ama@example.com', 'a+b@x.example', 'kofi.o’neil@acme.example.com']) {
      const secret = generateSecret({ length: 20 });
      expect(totpUri(secret, email)).toBe(
        generateURI({ issuer: 'Cardwallet', label: email, secret, period: 30, digits: 6 }),
      );
    }
  });
});

describe('keyGroups', () => {
  it('cuts the key in fours, the last group what is left, and ignores spaces already there', () => {
    expect(keyGroups('JBSWY3DPEHPK3PXPAB')).toEqual(['JBSW', 'Y3DP', 'EHPK', '3PXP', 'AB']);
    expect(keyGroups('JBSW Y3DP')).toEqual(['JBSW', 'Y3DP']);
    expect(keyGroups('')).toEqual([]);
  });
});
