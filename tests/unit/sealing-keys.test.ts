import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { keyId, seal, unseal } from '../../server/lib/crypto';

const hex = (b: number) => b.toString(16).padStart(2, '0').repeat(32);
const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/cw-unit-keys', ...env });

/** A value as seal() wrote it before key ids: "v1.<iv>.<tag>.<ciphertext>". */
function sealedWithoutKeyId(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), enc]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('sealing with a current key and previous keys', () => {
  it('names the key in the sealed value, after the four parts older readers split', () => {
    const { encryptionKey } = config({ ENCRYPTION_KEY: hex(1) });
    const sealed = seal('secret', encryptionKey);
    expect(sealed.split('.')).toHaveLength(5);
    expect(sealed.split('.')[4]).toBe(keyId(encryptionKey));
    expect(unseal(sealed, encryptionKey)).toBe('secret');
  });

  it('opens values of ENCRYPTION_KEY_PREVIOUS, with or without a key id, and seals under ENCRYPTION_KEY only', () => {
    const a = config({ ENCRYPTION_KEY: hex(1) }).encryptionKey;
    const c = config({ ENCRYPTION_KEY: hex(3) }).encryptionKey;
    const named = seal('named', a);
    const legacy = sealedWithoutKeyId('legacy', a);
    const legacyC = sealedWithoutKeyId('legacy c', c);
    const b = config({ ENCRYPTION_KEY: hex(2), ENCRYPTION_KEY_PREVIOUS: `${hex(3)}, ${hex(1)}` }).encryptionKey;
    expect(unseal(named, b)).toBe('named');
    expect(unseal(legacy, b)).toBe('legacy');
    expect(unseal(legacyC, b)).toBe('legacy c');
    expect(seal('new', b).split('.')[4]).toBe(keyId(b));
    const bAlone = config({ ENCRYPTION_KEY: hex(2) }).encryptionKey;
    expect(() => unseal(named, bAlone)).toThrow(/neither ENCRYPTION_KEY nor in ENCRYPTION_KEY_PREVIOUS/);
    expect(() => unseal(legacy, bAlone)).toThrow();
  });

  it('refuses a previous key of the wrong size, or the current key among the previous', () => {
    expect(() => config({ ENCRYPTION_KEY: hex(2), ENCRYPTION_KEY_PREVIOUS: 'abcd' })).toThrow(ConfigError);
    expect(() => config({ ENCRYPTION_KEY: hex(2), ENCRYPTION_KEY_PREVIOUS: hex(2) })).toThrow(/must not hold/);
  });
});
