import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app';
import { type Actor, logIn, newCompany, newIndividual } from './support/actors';
import { generateCredentials, startReceiver } from './support/api';
import { expectLedgerConsistent, newCard, verifyAccount } from './support/cards';
import { fundWallet } from './support/money';
import { type OpsTarget, appWithKeyCheck, cli, emptyTarget } from './support/ops';
import { balanceOf } from './support/wallet';

/**
 * `npm run cli -- backup` and `restore` on the kind of database of the run (PGlite: a DATA_DIR; PostgreSQL:
 * pg_dump/pg_restore on a database of the test's own), in processes of their own as an operator runs them.
 */

const KEY = Buffer.alloc(32, 0x5a);
const keyEnv = { ENCRYPTION_KEY: KEY.toString('hex') };
const targets: OpsTarget[] = [];
afterAll(async () => {
  for (const target of targets) await target.drop();
});
const newTarget = async () => {
  const target = await emptyTarget();
  targets.push(target);
  return target;
};

interface Seen {
  balances: string[];
  cards: string[];
  users: number;
  webhookSecret: string;
}

async function look(t: TestApp, a: Actor, b: Actor, company: Actor): Promise<Seen> {
  const cards = await t.api('GET', `/cards/individual/${a.id}`, { token: a.token });
  const details = await t.api('GET', '/third-party/callback-details', { token: company.token });
  const [users] = (await t.ctx.database.query<{ n: number }>('ops_users', 'select count(*)::int as n from users', []))!;
  return {
    balances: [await balanceOf(t, a), await balanceOf(t, b)],
    cards: cards.body.data.map((c: { id: string }) => c.id).sort(),
    users: users!.n,
    webhookSecret: details.body.data.signing_secret,
  };
}

describe('backup and restore', () => {
  it('restores into an empty target what the backup held and nothing written after; sealed values open', async () => {
    const source = await newTarget();
    let t = await appWithKeyCheck(source, { encryptionKey: KEY });
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await verifyAccount(t, a);
    await fundWallet(t, a.id, 500_000);
    const transfer = (amount: string) =>
      t.api('POST', '/wallet/transfer', { token: a.token, body: { wallet_id: b.id, amount, reference: 'rent' } });
    expect((await transfer('25.00')).status).toBe(200);
    await newCard(t, a, { card_amount: '50.00' });
    const company = await newCompany(t);
    await verifyAccount(t, company);
    await generateCredentials(t, company);
    const receiver = await startReceiver(t);
    const hook = await t.api('POST', '/third-party/callback-request', {
      token: company.token,
      body: { callback_url: receiver.url, active: true },
    });
    expect(hook.status).toBe(200);
    const before = await look(t, a, b, company);
    expect(before.webhookSecret).toMatch(/^whsec_/);
    await t.close();

    const file = path.join(os.tmpdir(), `cw-backup-${Date.now()}.bak`);
    const backup = await cli(['backup', file], { ...source.env, ...keyEnv });
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);

    // Written after the backup: none of it may come back.
    t = await source.app({ encryptionKey: KEY });
    a.token = (await logIn(t, a.email, a.password, a.secret)).token;
    expect((await transfer('7.00')).status).toBe(200);
    await newCard(t, a, { card_amount: '20.00' });
    const later = await newIndividual(t);
    await t.close();

    const target = await newTarget();
    const restored = await cli(['restore', file], { ...target.env, ...keyEnv });
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);

    t = await appWithKeyCheck(target, { encryptionKey: KEY });
    try {
      t.clock.advance(10 * 60_000); // past every TOTP step the source's clock used
      // 2FA secrets open: each signs in with the key it set up before the backup.
      for (const who of [a, b, company]) who.token = (await logIn(t, who.email, who.password, who.secret)).token;
      expect(await look(t, a, b, company)).toEqual(before);
      const gone = await t.api('POST', '/account/login', { body: { email: later.email, password: later.password } });
      expect(gone.status).toBe(401);
      await expectLedgerConsistent(t, expect);
    } finally {
      await t.close();
      await receiver.close();
    }

    const again = await cli(['restore', file], { ...target.env, ...keyEnv });
    expect(again.code).toBe(1);
    expect(again.err).toContain('restore refuses it without --force');

    const other = await newTarget();
    const wrongKey = await cli(['restore', file], { ...other.env, ENCRYPTION_KEY: '11'.repeat(32) });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.err).toContain('sealed under another key');

    const foreign = path.join(os.tmpdir(), `cw-foreign-${Date.now()}.bak`);
    writeFileSync(foreign, 'PGDMP not ours');
    expect((await cli(['restore', foreign], { ...other.env, ...keyEnv })).err).toContain('is not a Cardwallet backup');
    const damaged = path.join(os.tmpdir(), `cw-damaged-${Date.now()}.bak`);
    const whole = readFileSync(file);
    writeFileSync(damaged, whole.subarray(0, whole.length - 100));
    const refused = await cli(['restore', damaged], { ...other.env, ...keyEnv });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('damaged or incomplete');
  }, 240_000);
});
