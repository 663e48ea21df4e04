import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '@shared/base64';
import { formatPhone, isTrunkZero, toE164 } from '@shared/phone';
import { isWebsite, meetsPasswordPolicy, phoneField, registerIndividualBody, splitFullName } from '@shared/contract';
import { seal, unseal } from '../../server/lib/crypto';

describe('splitFullName', () => {
  it('splits at the first space and keeps the rest as the last name', () => {
    expect(splitFullName('Kofi Annan')).toEqual({ first_name: 'Kofi', last_name: 'Annan' });
    expect(splitFullName('  Ama   Ata  Aidoo ')).toEqual({ first_name: 'Ama', last_name: 'Ata Aidoo' });
    expect(splitFullName('Madonna')).toEqual({ first_name: 'Madonna', last_name: '' });
  });
});

describe('phone numbers', () => {
  it('is stored in E.164 whatever the spacing', () => {
    expect(phoneField().parse(' +233 24 123 4567 ')).toBe('+233241234567');
    expect(phoneField().parse('+233 (24) 123-4567')).toBe('+233241234567');
    expect(phoneField().parse('00233241234567')).toBe('+233241234567');
    expect(phoneField().parse('233241234567')).toBe('+233241234567');
  });
  it('drops a trunk 0 typed after the country code', () => {
    expect(phoneField().parse('+2330241234567')).toBe('+233241234567');
    expect(phoneField().parse('+234 0803 123 4567')).toBe('+2348031234567');
    expect(phoneField().parse('+44 07911 123456')).toBe('+447911123456');
  });
  it("refuses a number its country does not have, with the field's words", () => {
    for (const bad of ['+233024123456', '+233123456789', '+1 234 56', '+1234567890123456', 'call me', '0241234567'])
      expect(phoneField().safeParse(bad).error?.issues[0].message).toBe('Valid Phone Number is required');
    expect(phoneField().safeParse('').error?.issues[0].message).toBe('Phone Number is required');
    expect(
      phoneField('Momo Number is required', 'Valid Momo Number is required').safeParse('+23302').error?.issues[0]
        .message,
    ).toBe('Valid Momo Number is required');
  });
  it('round-trips: a valid Ghana mobile, typed with or without its trunk 0, spaced or not, is the same E.164', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('20', '23', '24', '26', '27', '28', '50', '54', '55', '57'),
        fc.stringMatching(/^[0-9]{7}$/),
        fc.boolean(),
        fc.boolean(),
        (prefix, rest, trunk, spaced) => {
          const national = `${trunk ? '0' : ''}${prefix}${rest}`;
          const typed = spaced ? `+233 ${national.replace(/(\d{3})(?=\d)/g, '$1 ')}` : `+233${national}`;
          const e164 = `+233${prefix}${rest}`;
          return (
            phoneField().parse(typed) === e164 &&
            phoneField().parse(e164) === e164 &&
            toE164(
              formatPhone(e164)
                .replace(/ \(.*\)$/, '')
                .replace(/^0/, '+233'),
            ) === e164
          );
        },
      ),
    );
  });
  it('shows a stored number in its national format with the country', () => {
    expect(formatPhone('+233241234567')).toBe('024 123 4567 (Ghana)');
    expect(formatPhone('+12015550123')).toBe('(201) 555-0123 (United States)');
    expect(formatPhone('+233024123456')).toBe('+233024123456');
    expect(formatPhone(null)).toBe('');
  });
  it('knows where a first 0 is the trunk prefix', () => {
    expect(isTrunkZero('gh')).toBe(true);
    expect(isTrunkZero('ng')).toBe(true);
    expect(isTrunkZero('us')).toBe(false);
    expect(isTrunkZero('it')).toBe(false);
    expect(isTrunkZero('zz')).toBe(false);
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
