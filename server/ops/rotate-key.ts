import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { keyCheckValue } from '../db/key-check';
import { keyId, seal, unseal } from '../lib/crypto';
import { failpoint } from '../lib/failpoints';

/**
 * Every column that holds values sealed with seal(): a new one belongs here, or rotate-key leaves it under
 * the old key (tests/integration/key-rotation.test.ts scans every text column of the database for that).
 */
const SEALED_COLUMNS: readonly { table: string; key: readonly string[]; column: string }[] = [
  { table: 'users', key: ['id'], column: 'totp_secret' },
  { table: 'users', key: ['id'], column: 'pending_totp_secret' },
  { table: 'login_challenges', key: ['id'], column: 'pending_totp_secret' },
  { table: 'callback_endpoints', key: ['id'], column: 'signing_secret' },
  { table: 'decision_endpoints', key: ['company_id'], column: 'signing_secret' },
  { table: 'sandbox_cards', key: ['id'], column: 'pan_sealed' },
  { table: 'sandbox_cards', key: ['id'], column: 'cvc_sealed' },
  // idempotent replays; bodies recorded before they were sealed are plain JSON and stay so
  { table: 'idempotency_keys', key: ['principal', 'key'], column: 'response_body' },
  { table: 'key_checks', key: ['id'], column: 'recovery_key' },
];

export interface RotationReport {
  columns: { column: string; resealed: number; changedMeanwhile: number }[];
  /** the key check now names ENCRYPTION_KEY (false: it already did) */
  checkMoved: boolean;
}

interface RotationContext {
  config: Pick<Config, 'encryptionKey' | 'failpoints'>;
  log: { error(obj: object, msg: string): void };
}

type Row = Record<string, unknown> & { sealed: string };

/**
 * Re-seals every value not sealed under ENCRYPTION_KEY (opened with it or a key of ENCRYPTION_KEY_PREVIOUS),
 * while servers run: batches in key order, each row written only if it still holds what was read (a
 * server that rewrote it meanwhile sealed under the current key already). No transaction spans a batch,
 * so a kill loses nothing and a rerun continues where values are still under an old key. Then the key
 * check moves to ENCRYPTION_KEY and the old key's check is retired.
 */
export async function rotateKey(
  ctx: RotationContext,
  database: Pick<Database, 'query'>,
  opts: { batchSize?: number; newRecoverySecret?: boolean; progress?: (line: string) => void } = {},
): Promise<RotationReport> {
  const key = ctx.config.encryptionKey;
  const kid = keyId(key);
  const batchSize = opts.batchSize ?? 500;
  const report: RotationReport = { columns: [], checkMoved: false };
  for (const c of SEALED_COLUMNS) report.columns.push(await resealColumn(ctx, database, c, batchSize, opts.progress));
  // A value sealed under an old key after the pass read past it: an instance still writes with that key.
  const left = await underOldKeys(database, kid);
  if (left.length)
    throw new Error(
      `Still sealed under an old key after the pass: ${left.join(', ')}. An instance may still run with the old ENCRYPTION_KEY: restart every instance with the new key (the old one in ENCRYPTION_KEY_PREVIOUS) and run rotate-key again.`,
    );
  const mine = keyCheckValue(key);
  const moved = await database.query(
    'rotate_move_check',
    `update key_checks set check_value = $1, retired_checks = array_append(retired_checks, check_value)
      where id = 1 and check_value <> $1 returning 1`,
    [mine],
  );
  report.checkMoved = moved.length > 0;
  if (opts.newRecoverySecret) {
    // After a leak the old secret is known with the old key: a new one, and the codes keyed with the old one go.
    await database.query('rotate_recovery_secret', 'update key_checks set recovery_key = $1 where id = 1', [
      seal(randomBytes(32).toString('hex'), key),
    ]);
    await database.query('rotate_recovery_codes', 'delete from recovery_codes where used_at is null', []);
  }
  return report;
}

type SealedColumn = (typeof SEALED_COLUMNS)[number];

async function resealColumn(
  ctx: RotationContext,
  database: Pick<Database, 'query'>,
  c: SealedColumn,
  batchSize: number,
  progress?: (line: string) => void,
): Promise<RotationReport['columns'][number]> {
  const key = ctx.config.encryptionKey;
  const kid = keyId(key);
  const keys = c.key.map((k) => `"${k}"`).join(', ');
  const name = `${c.table}.${c.column}`;
  const tally = { column: name, resealed: 0, changedMeanwhile: 0 };
  let after: unknown[] | null = null;
  for (;;) {
    const params: unknown[] = [kid, batchSize];
    const from = after ? `and (${keys}) > (${after.map((_, i) => `$${i + 3}`).join(', ')})` : '';
    if (after) params.push(...after);
    const rows: Row[] = await database.query<Row>(
      `rotate_read_${c.table}_${c.column}${after ? '_after' : ''}`,
      `select ${keys}, "${c.column}" as sealed from "${c.table}"
        where "${c.column}" like 'v1.%' and split_part("${c.column}", '.', 5) <> $1 ${from}
        order by ${keys} limit $2`,
      params,
    );
    if (!rows.length) break;
    for (const row of rows) {
      let plain: string;
      try {
        plain = unseal(row.sealed, key);
      } catch (err) {
        const at = c.key.map((k) => `${k}=${String(row[k])}`).join(', ');
        throw new Error(`${name} (${at}) opens with none of the keys given: ${(err as Error).message}`);
      }
      const written = await database.query(
        `rotate_write_${c.table}_${c.column}`,
        `update "${c.table}" set "${c.column}" = $1
          where ${c.key.map((k, i) => `"${k}" = $${i + 3}`).join(' and ')} and "${c.column}" = $2 returning 1`,
        [seal(plain, key), row.sealed, ...c.key.map((k) => row[k])],
      );
      if (written.length) tally.resealed++;
      else tally.changedMeanwhile++;
    }
    after = c.key.map((k) => rows.at(-1)![k]);
    progress?.(`${name}: ${tally.resealed} re-sealed`);
    await failpoint(ctx, 'rotate-key.after-batch');
  }
  return tally;
}

/** The columns that still hold a value under another key than `kid`. */
async function underOldKeys(database: Pick<Database, 'query'>, kid: string): Promise<string[]> {
  const left: string[] = [];
  for (const c of SEALED_COLUMNS) {
    const [row] = await database.query(
      `rotate_left_${c.table}_${c.column}`,
      `select 1 from "${c.table}" where "${c.column}" like 'v1.%' and split_part("${c.column}", '.', 5) <> $1 limit 1`,
      [kid],
    );
    if (row) left.push(`${c.table}.${c.column}`);
  }
  return left;
}
