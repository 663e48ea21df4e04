import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';

/**
 * Tron deposit addresses from an extended public key, so the server never holds a private key.
 * BIP44 coin type 195: TRON_XPUB is the account key at m/44'/195'/0', and the server derives
 * only the non-hardened m/44'/195'/0'/0/i below it.
 */
export const TRON_ACCOUNT_PATH = "m/44'/195'/0'";
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** The Tron address of a secp256k1 public key: base58check(0x41 ‖ keccak256(x ‖ y)[12..32]). */
function tronAddressOf(publicKey: Uint8Array): string {
  const point = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  payload.set(keccak_256(point.subarray(1)).subarray(12), 1);
  return base58check.encode(payload);
}

/** Deposit address number `index` (m/…/0/index) under an account-level xpub. */
export function depositAddressAt(xpub: HDKey, index: number): string {
  const child = xpub.deriveChild(0).deriveChild(index);
  return tronAddressOf(child.publicKey!);
}

export function parseXpub(raw: string): HDKey {
  const key = HDKey.fromExtendedKey(raw.trim());
  if (key.privateKey) throw new Error('TRON_XPUB must be an extended public key (xpub…), never a private one');
  if (key.depth !== 3)
    throw new Error(`TRON_XPUB must be the account key at ${TRON_ACCOUNT_PATH} (depth 3), not depth ${key.depth}`);
  return key;
}

/** A development account key (outside production only): a random seed, kept nowhere but this xpub. */
export function newDevelopmentXpub(): string {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  return HDKey.fromMasterSeed(seed).derive(TRON_ACCOUNT_PATH).publicExtendedKey;
}

/** True for a well-formed Tron address whose checksum holds. */
export function isTronAddress(s: string): boolean {
  if (!TRON_ADDRESS.test(s)) return false;
  try {
    return base58check.decode(s)[0] === TRON_PREFIX;
  } catch {
    return false;
  }
}

/** Hex form (41…, as the chain's node API writes it) to base58check. */
export function tronAddressFromHex(hex: string): string {
  const h = hex.replace(/^0x/, '').toLowerCase();
  const body = h.length === 40 ? `41${h}` : h;
  if (!/^41[0-9a-f]{40}$/.test(body)) throw new Error(`not a Tron hex address: ${hex}`);
  return base58check.encode(Uint8Array.from(Buffer.from(body, 'hex')));
}

export function tronAddressToHex(address: string): string {
  return Buffer.from(base58check.decode(address)).toString('hex');
}
