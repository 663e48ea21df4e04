import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '@shared/base64';
import {
  digitCount,
  isWebsite,
  meetsPasswordPolicy,
  normalisePhone,
  phoneField,
  registerIndividualBody,
  splitFullName,
} from '@shared/contract';
import { seal, unseal } from '../../server/lib/crypto';

describe('splitFullName', () => {
  it('splits at the first space and keeps the rest as the last name', () => {
    expect(splitFullName('Kofi Annan')).toEqual({ first_name: 'Kofi', last_name: 'Annan' });
    expect(splitFullName('  Ama   Ata  Aidoo ')).toEqual({ first_name: 'Ama', last_name: 'Ata Aidoo' });
    expect(splitFullName('Madonna')).toEqual({ first_name: 'Madonna', last_name: '' });
  });
});

describe('phone numbers', () => {
  it('normalises to + and digits', () => {
    expect(normalisePhone('+233 (24) 123-4567')).toBe('+233241234567');
    expect(phoneField().parse(' +233 24 123 4567 ')).toBe('+233241234567');
  });
  it('needs 7 to 15 digits', () => {
    expect(phoneField().safeParse('+1 234 56').success).toBe(false);
    expect(phoneField().safeParse('+1234567890123456').success).toBe(false);
    expect(phoneField().safeParse('call me').success).toBe(false);
    fc.assert(
      fc.property(
        fc.stringMatching(/^\+[1-9][0-9]{6,14}$/),
        (p) => phoneField().safeParse(p).success && digitCount(p) >= 7,
      ),
    );
  });
});

describe('password policy', () => {
  it('needs 8 characters with lower, upper, digit and special', () => {
    expect(meetsPasswordPolicy('Abcdef1!')).toBe(true);
    for (const bad of ['Abcdef1', 'abcdefg1!', 'ABCDEFG1!', 'Abcdefgh!', 'Abcdefgh1'])
      expect(meetsPasswordPolicy(bad)).toBe(false);
  });
  it('is what registration enforces, with the matching confirmation', () => {
    const base = { first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '+233241234567' };
    const ok = registerIndividualBody.safeParse({ ...base, password: 'Abcdef1!', confirm_password: 'Abcdef1!' });
    expect(ok.success).toBe(true);
    const mismatch = registerIndividualBody.safeParse({ ...base, password: 'Abcdef1!', confirm_password: 'Abcdef1?' });
    expect(mismatch.error?.issues[0]).toMatchObject({ path: ['confirm_password'], message: 'Passwords do not match' });
  });
});

describe('websites', () => {
  it('accepts host names with or without a scheme', () => {
    for (const ok of ['example.com', 'https://acme.example.com/about', 'http://shop.co.uk'])
      expect(isWebsite(ok)).toBe(true);
    for (const bad of ['not a site', 'localhost', 'ftp://example.com', '']) expect(isWebsite(bad)).toBe(false);
  });
});

describe('base64 query parameters', () => {
  it('round-trips any text, including non-ASCII', () => {
    fc.assert(fc.property(fc.string(), (s) => fromBase64(toBase64(s)) === s));
    expect(fromBase64('%%%')).toBe('');
  });
});

describe('sealing secrets at rest', () => {
  const key = Buffer.alloc(32, 1);
  it('round-trips and never yields the plain text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const sealed = seal(s, key);
        return unseal(sealed, key) === s && (s.length < 4 || !sealed.includes(s));
      }),
    );
  });
  it('refuses a tampered value or another key', () => {
    const sealed = seal('JBSWY3DPEHPK3PXP', key);
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => unseal(parts.join('.'), key)).toThrow();
    expect(() => unseal(sealed, Buffer.alloc(32, 2))).toThrow();
  });
});
