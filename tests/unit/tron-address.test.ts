import { HDKey } from '@scure/bip32';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TRON_ACCOUNT_PATH,
  depositAddressAt,
  isTronAddress,
  parseXpub,
  tronAddressFromHex,
  tronAddressToHex,
} from '../../server/chain/address';

// BIP39's "abandon ×11 about" with no passphrase: the seed every wallet's test vectors start from.
const SEED =
  '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4';
// m/44'/195'/0'/0/0..4, as the Ian Coleman BIP39 tool, TronLink and Ledger's Tron app give them.
const PUBLISHED = [
  'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
  'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK',
  'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx',
  'TRhVWK5XEDkQBDevcdCWW7RW51aRncty4W',
  'TT2X2yyubp7qpAWYYNE5JQWBtoZ7ikQFsY',
];

describe('Tron deposit addresses from an xpub', () => {
  const account = HDKey.fromMasterSeed(Buffer.from(SEED, 'hex')).derive(TRON_ACCOUNT_PATH);

  it("derives the published BIP44 addresses m/44'/195'/0'/0/i from the account's public key alone", () => {
    const xpub = parseXpub(account.publicExtendedKey);
    expect(xpub.privateKey).toBeNull();
    expect(PUBLISHED.map((_, i) => depositAddressAt(xpub, i))).toEqual(PUBLISHED);
  });

  it('refuses an extended private key: the server must never hold one', () => {
    expect(() => parseXpub(account.privateExtendedKey)).toThrow(/public key/);
  });

  it("refuses a key at another depth than the account (m/44'/195'/0')", () => {
    const master = HDKey.fromMasterSeed(Buffer.from(SEED, 'hex'));
    expect(() => parseXpub(master.publicExtendedKey)).toThrow(/depth 3/);
  });

  it('gives valid 34-character base58check addresses starting with T, distinct per index', () => {
    const xpub = parseXpub(account.publicExtendedKey);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (i) => {
        const a = depositAddressAt(xpub, i);
        expect(a).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
        expect(isTronAddress(a)).toBe(true);
        expect(tronAddressFromHex(tronAddressToHex(a))).toBe(a);
      }),
      { numRuns: 25 },
    );
  });

  it('tells a broken checksum from a valid address', () => {
    const a = PUBLISHED[0]!;
    const broken = `${a.slice(0, -1)}${a.endsWith('H') ? 'J' : 'H'}`;
    expect(isTronAddress(broken)).toBe(false);
    expect(isTronAddress('not an address')).toBe(false);
  });
});
