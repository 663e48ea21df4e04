import { createHmac } from 'node:crypto';
import { ConfigError } from '../config';
import type { Database } from './client';

/** HMAC of a fixed label: it tells keys apart without revealing anything about the key. */
function keyCheckValue(key: Buffer): string {
  return createHmac('sha256', key).update('cardwallet encryption key check v1').digest('hex');
}

const KEY_MISMATCH_MESSAGE =
  'ENCRYPTION_KEY does not match the key this database was first started with, so nothing sealed in it could be opened.\n' +
  'Start every instance with that same ENCRYPTION_KEY (or, without one, the DATA_DIR whose encryption.key it was).';

/**
 * The first instance to start on a database records its key's check value; every later start
 * (a second instance, a restart with another DATA_DIR) must hold the same key. Another key would
 * start fine and then fail to open every sealed value: idempotent replays, card data, 2FA secrets.
 */
export async function checkEncryptionKey(
  database: Pick<Database, 'query'>,
  key: Buffer,
): Promise<'recorded' | 'matched'> {
  const mine = keyCheckValue(key);
  const inserted = await database.query(
    'key_check_record',
    'insert into key_checks (id, check_value) values (1, $1) on conflict (id) do nothing returning id',
    [mine],
  );
  if (inserted.length) return 'recorded';
  const [row] = await database.query<{ check_value: string }>(
    'key_check_read',
    'select check_value from key_checks where id = 1',
    [],
  );
  if (row?.check_value === mine) return 'matched';
  throw new ConfigError(KEY_MISMATCH_MESSAGE);
}
