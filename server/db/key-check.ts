import { createHmac, randomBytes } from 'node:crypto';
import { ConfigError } from '../config';
import { attachRecoveryKey, keysOf, seal, unseal } from '../lib/crypto';
import type { Database } from './client';

/** HMAC of a fixed label: it tells keys apart without revealing anything about the key. */
export function keyCheckValue(key: Buffer): string {
  return createHmac('sha256', key).update('cardwallet encryption key check v1').digest('hex');
}

const KEY_MISMATCH_MESSAGE =
  'ENCRYPTION_KEY does not match the key this database was first started with, so nothing sealed in it could be opened.\n' +
  'Start every instance with that same ENCRYPTION_KEY (or, without one, the DATA_DIR whose encryption.key it was).';

const KEY_RETIRED_MESSAGE =
  'ENCRYPTION_KEY is a key `rotate-key` retired: this database is sealed under its successor.\n' +
  'Start every instance with the ENCRYPTION_KEY the rotation ran with.';

interface KeyCheckRow {
  check_value: string;
  recovery_key: string | null;
  retired: boolean;
}

/**
 * The first instance to start on a database records its key's check value; every later start
 * (a second instance, a restart with another DATA_DIR) must hold the same key, or (during a
 * rotation) hold it in ENCRYPTION_KEY_PREVIOUS. Another key would start fine and then fail to open
 * every sealed value: idempotent replays, card data, 2FA secrets. It also loads the recovery codes'
 * secret (see recoveryKeyOf).
 */
export async function checkEncryptionKey(
  database: Pick<Database, 'query'>,
  key: Buffer,
): Promise<'recorded' | 'matched' | 'previous'> {
  const mine = keyCheckValue(key);
  const inserted = await database.query(
    'key_check_record',
    'insert into key_checks (id, check_value, recovery_key) values (1, $1, $2) on conflict (id) do nothing returning id',
    [mine, seal(randomBytes(32).toString('hex'), key)],
  );
  let row = await readKeyCheck(database, mine);
  if (row.retired) throw new ConfigError(KEY_RETIRED_MESSAGE);
  const databaseKey = keysOf(key).find((k) => keyCheckValue(k) === row.check_value);
  if (!databaseKey) throw new ConfigError(KEY_MISMATCH_MESSAGE);
  if (!row.recovery_key) {
    // Codes issued before the column existed were keyed with the database's key itself: it stays their secret.
    await database.query(
      'key_check_recovery',
      'update key_checks set recovery_key = $1 where id = 1 and recovery_key is null',
      [seal(databaseKey.toString('hex'), key)],
    );
    row = await readKeyCheck(database, mine);
  }
  attachRecoveryKey(key, Buffer.from(unseal(row.recovery_key!, key), 'hex'));
  return inserted.length ? 'recorded' : databaseKey === key ? 'matched' : 'previous';
}

async function readKeyCheck(database: Pick<Database, 'query'>, mine: string): Promise<KeyCheckRow> {
  const [row] = await database.query<KeyCheckRow>(
    'key_check_read',
    'select check_value, recovery_key, $1 = any(retired_checks) as retired from key_checks where id = 1',
    [mine],
  );
  return row!;
}
