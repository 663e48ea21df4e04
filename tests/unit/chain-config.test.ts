import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { TRON_ACCOUNT_PATH } from '../../server/chain/address';
import { loadConfig } from '../../server/config';

const account = HDKey.fromMasterSeed(new Uint8Array(32).fill(9)).derive(TRON_ACCOUNT_PATH);
const XPUB = account.publicExtendedKey;
const dir = () => mkdtempSync(path.join(os.tmpdir(), 'cw-chain-config-'));
const production = { NODE_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('chain configuration', () => {
  it('generates a development xpub into DATA_DIR once, and keeps it', () => {
    const DATA_DIR = dir();
    const first = loadConfig({ DATA_DIR }).chain;
    expect(first).toMatchObject({ kind: 'sandbox', minConfirmations: 19, pollMs: 10_000, watch: true });
    expect(readFileSync(path.join(DATA_DIR, 'tron.xpub'), 'utf8')).toBe(first.xpub);
    expect(loadConfig({ DATA_DIR }).chain.xpub).toBe(first.xpub);
  });

  it('in production wants TRON_XPUB and the real chain: the sandbox chain would let staff mint deposits', () => {
    expect(() => loadConfig({ ...production, DATA_DIR: dir(), CHAIN: 'trongrid' })).toThrow(
      /TRON_XPUB is required in production/,
    );
    expect(() => loadConfig({ ...production, DATA_DIR: dir(), TRON_XPUB: XPUB })).toThrow(
      /CHAIN=sandbox is refused in production/,
    );
    expect(
      loadConfig({ ...production, DATA_DIR: dir(), TRON_XPUB: XPUB, CHAIN: 'trongrid', TRONGRID_API_KEY: 'k' }).chain,
    ).toMatchObject({
      kind: 'trongrid',
      xpub: XPUB,
      trongridApiKey: 'k',
      pollMs: 30_000,
    });
  });

  it('refuses a private key, a key at the wrong depth and nonsense as TRON_XPUB', () => {
    for (const bad of [
      account.privateExtendedKey,
      HDKey.fromMasterSeed(new Uint8Array(32).fill(9)).publicExtendedKey,
      'xpub-nonsense',
    ]) {
      expect(() => loadConfig({ DATA_DIR: dir(), TRON_XPUB: bad })).toThrow(/TRON_XPUB/);
    }
  });
});
