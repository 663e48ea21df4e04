import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque random token for sessions, challenges and mail links (256 bits). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256, so a database read does not yield usable tokens. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * ENCRYPTION_KEY seals; the keys of ENCRYPTION_KEY_PREVIOUS only open what was sealed before a
 * rotation. They ride with the current key's Buffer (registered by loadConfig), so every caller
 * that holds `config.encryptionKey` opens old values without knowing about rotation.
 */
const previousKeys = new WeakMap<Buffer, readonly Buffer[]>();
/** The sealed random secret recovery codes are keyed with (see key-check.ts), per current key. */
const recoveryKeys = new WeakMap<Buffer, Buffer>();

export function attachPreviousKeys(current: Buffer, previous: readonly Buffer[]): Buffer {
  previousKeys.set(current, previous);
  return current;
}

export function attachRecoveryKey(current: Buffer, recoveryKey: Buffer): void {
  recoveryKeys.set(current, recoveryKey);
}

/** The current key, then the previous ones. */
export const keysOf = (key: Buffer): Buffer[] => [key, ...(previousKeys.get(key) ?? [])];

/** What recovery codes are hashed with: the database's own secret once the key check has loaded it. */
export const recoveryKeyOf = (key: Buffer): Buffer => recoveryKeys.get(key) ?? key;

/** A short public name of a key (48 bits of an HMAC): which key sealed a value, never the key. */
export function keyId(key: Buffer): string {
  let id = keyIds.get(key);
  if (!id) {
    id = createHmac('sha256', key).update('cardwallet key id v1').digest().subarray(0, 6).toString('base64url');
    keyIds.set(key, id);
  }
  return id;
}
const keyIds = new WeakMap<Buffer, string>();

/**
 * AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>.<key id>" in base64url. The key id comes last so that a
 * reader of the older four-part form ignores it (an instance not yet upgraded opens new values).
 */
export function seal(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag().toString('base64url');
  return ['v1', iv.toString('base64url'), tag, enc.toString('base64url'), keyId(key)].join('.');
}

function open(iv: string, tag: string, enc: string, key: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(enc, 'base64url')), decipher.final()]).toString('utf8');
}

/** Opens with the key the value names, or (an older value without a name) each key in turn. */
export function unseal(sealed: string, key: Buffer): string {
  const [v, iv, tag, enc, kid] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || enc === undefined) throw new Error('Unknown sealed format');
  const keys = keysOf(key);
  if (kid) {
    const named = keys.find((k) => keyId(k) === kid);
    if (!named)
      throw new Error(`Sealed with key ${kid}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEY_PREVIOUS`);
    return open(iv, tag, enc, named);
  }
  for (const k of keys.slice(0, -1)) {
    try {
      return open(iv, tag, enc, k);
    } catch {
      // GCM's tag refuses a wrong key: try the next one
    }
  }
  return open(iv, tag, enc, keys.at(-1)!);
}
