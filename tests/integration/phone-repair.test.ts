import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgliteExtensions } from '../../server/db/client';
import { toE164 } from '../../shared/phone';
import { type PrivateDatabase, privatePostgres } from './support/private-db';

/**
 * Migration 0034 drops a trunk 0 stored after the country code where the rest is a number of the country's
 * shape, and leaves every other number as it is. It runs here again, statement by statement, on a migrated
 * database of this file's own into which the bad rows were written first.
 */
const statements = readFileSync(
  path.resolve(__dirname, '../../server/db/migrations/0034_phone_trunk_zero.sql'),
  'utf8',
).split('--> statement-breakpoint');
const createFunction = statements[0]!;

interface Connection {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

let db: Connection;
let ownDatabase: PrivateDatabase | null = null;
beforeAll(async () => {
  ownDatabase = await privatePostgres();
  if (ownDatabase) {
    const client = new pg.Client({ connectionString: ownDatabase.url });
    await client.connect();
    db = { rows: async (text, params) => (await client.query(text, params)).rows, close: () => client.end() };
  } else {
    const pgl = await PGlite.create({
      loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
      extensions: await pgliteExtensions(),
    });
    db = { rows: async (text, params) => (await pgl.query(text, params)).rows as never[], close: () => pgl.close() };
  }
});
afterAll(async () => {
  await db?.close();
  await ownDatabase?.drop();
});

const STORED = {
  trunkZero: '+2330241234567',
  lostDigit: '+233024123456',
  good: '+233241234567',
  nigeria: '+23408031234567',
  britain: '+4407911123456',
  italy: '+390612345678',
  unitedStates: '+12015550123',
  notANumber: 'call me',
};
const REPAIRED: Record<keyof typeof STORED, string> = {
  trunkZero: '+233241234567',
  lostDigit: '+233024123456',
  good: '+233241234567',
  nigeria: '+2348031234567',
  britain: '+447911123456',
  italy: '+390612345678',
  unitedStates: '+12015550123',
  notANumber: 'call me',
};

describe('migration 0034: trunk zeros stored after the country code', () => {
  it('repairs users, companies and the momo number, and leaves a number that lost a digit as it was', async () => {
    const ids: Record<string, string> = {};
    for (const [key, phone] of Object.entries(STORED)) {
      const [row] = await db.rows<{ id: string }>(
        `INSERT INTO users (id, email, first_name, last_name, phone_number, role)
         VALUES ($1, $2, 'Phone', 'Repair', $3, 'Individual') RETURNING id`,
        [crypto.randomUUID(), `repair-${key}-${crypto.randomUUID()}@example.com`, phone],
      );
      ids[key] = row!.id;
    }
    const [company] = await db.rows<{ id: string }>(
      `INSERT INTO companies (id, company_name, company_website, company_email, company_phone)
       VALUES ($1, 'Repair Ltd', 'repair.example.com', 'repair@example.com', '+2330302123456') RETURNING id`,
      [crypto.randomUUID()],
    );
    await db.rows(
      `INSERT INTO momo_settings (id, momo_name, momo_number, network, rate, flat_fee)
       VALUES (1, 'Momo', '+2330240001111', 'MTN', '15.00', 0)
       ON CONFLICT (id) DO UPDATE SET momo_number = EXCLUDED.momo_number`,
    );

    for (const s of statements) await db.rows(s);

    for (const [key, id] of Object.entries(ids)) {
      const [u] = await db.rows<{ phone_number: string }>('SELECT phone_number FROM users WHERE id = $1', [id]);
      expect(u!.phone_number, key).toBe(REPAIRED[key as keyof typeof STORED]);
    }
    const [c] = await db.rows<{ company_phone: string }>('SELECT company_phone FROM companies WHERE id = $1', [
      company!.id,
    ]);
    expect(c!.company_phone).toBe('+233302123456');
    const [m] = await db.rows<{ momo_number: string }>('SELECT momo_number FROM momo_settings WHERE id = 1');
    expect(m!.momo_number).toBe('+233240001111');
    // the function is the migration's own: gone once it has run
    expect(await db.rows(`SELECT 1 FROM pg_proc WHERE proname = 'cw_phone_without_trunk_zero'`)).toHaveLength(0);
  });

  it('writes a momo number typed in the local or a spaced form (free text before) in E.164', async () => {
    const forms: Record<string, string> = {
      '024 123 4567': '+233241234567',
      '024-123-4567': '+233241234567',
      '+233 24 123 4567': '+233241234567',
      '00233 (0)24 123 4567': '+233241234567',
      'call the office': 'call the office',
    };
    for (const [typed, kept] of Object.entries(forms)) {
      await db.rows(
        `INSERT INTO momo_settings (id, momo_name, momo_number, network, rate, flat_fee)
         VALUES (1, 'Momo', $1, 'MTN', '15.00', 0)
         ON CONFLICT (id) DO UPDATE SET momo_number = EXCLUDED.momo_number`,
        [typed],
      );
      for (const s of statements) await db.rows(s);
      const [m] = await db.rows<{ momo_number: string }>('SELECT momo_number FROM momo_settings WHERE id = 1');
      expect(m!.momo_number, typed).toBe(kept);
      if (kept.startsWith('+')) expect(toE164(kept)).toBe(kept);
    }
  });

  it('changes a number only into the valid number the library reads in it', async () => {
    await db.rows(createFunction);
    try {
      const fixes: Record<string, string> = {
        '+2340803123456': '+2340803123456',
        '+4903012345678': '+493012345678',
        '+330612345678': '+33612345678',
        '+2540712345678': '+254712345678',
        '+610412345678': '+61412345678',
        '+2330': '+2330',
        '+0': '+0',
        '': '',
      };
      for (const [phone, expected] of Object.entries(fixes)) {
        const [r] = await db.rows<{ fixed: string }>('SELECT cw_phone_without_trunk_zero($1) AS fixed', [phone]);
        expect(r!.fixed, phone).toBe(expected);
      }
      for (const phone of [...Object.values(STORED), ...Object.keys(fixes)]) {
        const [r] = await db.rows<{ fixed: string }>('SELECT cw_phone_without_trunk_zero($1) AS fixed', [phone]);
        if (r!.fixed === phone) continue;
        expect(toE164(r!.fixed), phone).toBe(r!.fixed);
        expect(toE164(phone), phone).toBe(r!.fixed);
      }
    } finally {
      await db.rows('DROP FUNCTION cw_phone_without_trunk_zero(text)');
    }
  });
});
