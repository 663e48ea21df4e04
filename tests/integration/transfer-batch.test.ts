import { randomUUID } from 'node:crypto';
import { eq, sql as sqlTag } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, mailsTo, newCompany, newCompanyMember, newIndividual } from './support/actors';
import { fundWallet } from './support/money';
import { balanceOf, walletOf } from './support/wallet';

/**
 * Transfers that reach one instance together are posted in one transaction (cw_transfer_batch),
 * each as if alone: what a caller sees is unchanged. (On PostgreSQL these requests form batches; on
 * PGlite, whose one connection serialises every request's queries, they mostly go alone. How batches
 * form is tests/unit/transfer-batch.test.ts.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

class RolledBack extends Error {}

const send = (from: Actor, to: string, amount: string) =>
  t.api('POST', '/wallet/transfer', { token: from.token, body: { wallet_id: to, amount } });

describe('transfers arriving together', () => {
  it('are each answered and posted as they would be alone', async () => {
    const from = await newIndividual(t);
    const to = [await newIndividual(t), await newCompany(t)];
    await fundWallet(t, from.id, 10_000);
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => send(from, walletOf(to[i % 2]!), '1.25')));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await balanceOf(t, from)).toBe('70.00');
    expect(await balanceOf(t, to[0]!)).toBe('15.00');
    expect(await balanceOf(t, to[1]!)).toBe('15.00');
    // Each answer names its own transfer and the balance it left, one step of 1.25 apart from the others.
    const after = results.map((r) => Number(r.body.data.balance_after)).sort((a, b) => b - a);
    expect(after).toEqual(Array.from({ length: 24 }, (_, i) => 100 - 1.25 * (i + 1)));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(24);
    // Each receiver is mailed of each transfer, batched or not.
    for (const who of to)
      await expect
        .poll(() => mailsTo(t, who.email).filter((m) => m.text.includes('sent USDT 1.25')).length, { timeout: 10_000 })
        .toBe(12);
  });

  it('refuses only the transfers the balance cannot pay, and keeps the others of the same commit', async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    await fundWallet(t, from.id, 1_000);
    const results = await Promise.all(Array.from({ length: 12 }, () => send(from, to.id, '3.00')));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(r.body.error).toEqual({ amount: ['Insufficient balance in your master wallet'] });
    }
    expect(await balanceOf(t, from)).toBe('1.00');
    expect(await balanceOf(t, to)).toBe('9.00');
  });

  it('refuses a transfer to no wallet without touching the others sent with it', async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    await fundWallet(t, from.id, 5_000);
    const nowhere = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(from, i % 3 === 1 ? nowhere : to.id, '2.00')),
    );
    for (const [i, r] of results.entries()) {
      if (i % 3 === 1) {
        expect(r.status).toBe(422);
        expect(r.body.error).toEqual({ wallet_id: ['No master wallet has this id'] });
      } else expect(r.status).toBe(200);
    }
    expect(await balanceOf(t, from)).toBe('36.00');
    expect(await balanceOf(t, to)).toBe('14.00');
  });
});

describe('cw_transfer_batch, a batch posted as sets', () => {
  const answer = JSON.stringify({
    to_name: '__cw_to_name__',
    balance_before: '__cw_balance_before__',
    balance_after: '__cw_balance_after__',
  });
  const item = (from: string, over: Record<string, unknown>) => ({
    from,
    to: null as string | null,
    amount: 100,
    transfer_id: randomUUID(),
    entry_from: randomUUID(),
    entry_to: randomUUID(),
    reference: `TRF-T${randomUUID().slice(0, 12)}`,
    description: 'Wallet transfer',
    meta: { reference: null },
    created_by: from,
    at: new Date().toISOString(),
    principal: `user:${from}`,
    key: randomUUID() as string | null,
    request_hash: 'h',
    answer,
    ...over,
  });
  const sql = (text: string, params: unknown[]) =>
    t.ctx.database.query<Record<string, unknown>>(`test_${randomUUID()}`, text, params);

  it('decides each transfer in order against the balances the earlier ones left, refusing some and writing the rest together', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const co = await newCompany(t);
    const member = await newCompanyMember(t, co);
    const off = await newIndividual(t);
    await t.ctx.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, off.id));
    await fundWallet(t, a.id, 1_000);
    const shared = randomUUID();
    const batch = [
      item(a.id, { to: b.id, amount: 400 }), // ok: 10.00 → 6.00
      item(a.id, { to: walletOf(co), amount: 500 }), // ok: 6.00 → 1.00
      item(a.id, { to: b.id, amount: 200 }), // refused: 1.00 left
      item(a.id, { to: randomUUID() }), // refused: no such wallet
      item(a.id, { to: off.id }), // refused: deactivated
      item(a.id, { to: b.id, amount: 50, key: shared }), // ok: 1.00 → 0.50
      item(a.id, { to: b.id, amount: 50, key: shared }), // the same key again: taken
      item(a.id, { to: a.id }), // to itself: no such wallet to send to
      item(a.id, { to: b.id, amount: 25, key: null }), // ok without a key: 0.50 → 0.25
    ];
    const lease = new Date(Date.now() + 120_000);
    const rows = await sql(
      'select i, outcome, to_name, balance_before::text, balance_after::text, error, mails from cw_transfer_batch($1::jsonb, $2)',
      [JSON.stringify(batch), lease.toISOString()],
    );
    expect(rows.map((r) => [r.i, r.outcome, r.error, r.balance_before, r.balance_after])).toEqual([
      [0, 'ok', null, '1000', '600'],
      [1, 'ok', null, '600', '100'],
      [2, 'error', 'cw:insufficient_funds', null, null],
      [3, 'error', 'cw:target_not_found', null, null],
      [4, 'error', 'cw:target_inactive', null, null],
      [5, 'ok', null, '100', '50'],
      [6, 'key_taken', null, null, null],
      [7, 'error', 'cw:target_not_found', null, null],
      [8, 'ok', null, '50', '25'],
    ]);
    // Refused or taken: no one told. The Individual, the company's admin and user: told, and their mail claimed
    // for the caller until the lease, as the mail job's claim answers it.
    const mails = rows.map((r) => r.mails as Record<string, unknown>[] | null);
    expect(mails.map((m) => m?.map((x) => x.email).sort() ?? null)).toEqual([
      [b.email],
      [co.email, member.email].sort(),
      null,
      null,
      null,
      [b.email],
      null,
      null,
      [b.email],
    ]);
    expect(mails[0]![0]).toEqual({
      id: expect.any(String),
      type: 'transfer_received',
      title: 'You received USDT 4.00',
      body: 'Abena Asante sent USDT 4.00 to your master wallet.',
      link: '/portal/wallet-transfers',
      attempts: 1,
      email: b.email,
      firstName: 'Abena',
      leaseEnds: expect.any(String),
    });
    expect(new Date(mails[0]![0]!.leaseEnds as string).getTime()).toBe(lease.getTime());
    expect(rows.map((r) => r.to_name)).toEqual([
      'Abena Asante',
      'Volta Trading Ltd',
      null,
      null,
      null,
      'Abena Asante',
      null,
      null,
      'Abena Asante',
    ]);
    expect(await balanceOf(t, a)).toBe('0.25');
    expect(await balanceOf(t, b)).toBe('4.75');
    expect(await balanceOf(t, co)).toBe('5.00');

    // Each entry of the sender continues from the one before it.
    const chain = await sql(
      `select e.balance_before::text b, e.balance_after::text a from ledger_entries e join ledger_accounts w on w.id = e.account_id
       where w.kind = 'wallet' and w.owner_id = $1 order by e.seq`,
      [a.id],
    );
    expect(chain.map((r) => `${r.b}→${r.a}`)).toEqual(['0→1000', '1000→600', '600→100', '100→50', '50→25']);

    // Keys: an accepted transfer's holds its answer with the figures filled in; a refused one's is withdrawn.
    const keys = await sql('select key, state, response_body from idempotency_keys where principal = $1', [
      `user:${a.id}`,
    ]);
    const byKey = new Map(keys.map((k) => [k.key, k]));
    expect(JSON.parse(byKey.get(batch[0]!.key)!.response_body as string)).toEqual({
      to_name: 'Abena Asante',
      balance_before: '10.00',
      balance_after: '6.00',
    });
    expect(JSON.parse(byKey.get(shared)!.response_body as string)).toMatchObject({ balance_after: '0.50' });
    for (const refused of [2, 3, 4, 7]) expect(byKey.has(batch[refused]!.key)).toBe(false);
    expect(keys).toHaveLength(3);

    // The receivers hear of it: the Individual, and every user of the company.
    const told = await sql(
      `select user_id, title, mail_state, mail_attempts, mail_next_attempt_at from notifications
       where event_key = any($1::text[]) order by title, user_id`,
      [batch.map((x) => `transfer:${x.transfer_id}`)],
    );
    expect(
      told
        .filter((n) => n.user_id === b.id)
        .map((n) => n.title)
        .sort(),
    ).toEqual(['You received USDT 0.25', 'You received USDT 0.50', 'You received USDT 4.00']);
    for (const u of [co, member])
      expect(told.filter((n) => n.user_id === u.id).map((n) => n.title)).toEqual(['You received USDT 5.00']);
    expect(told).toHaveLength(5);
    for (const n of told) {
      expect(n).toMatchObject({ mail_state: 'pending', mail_attempts: 1 });
      expect(new Date(n.mail_next_attempt_at as string).getTime()).toBe(lease.getTime());
    }
  });

  it('reads only its own wallets, however many there are', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1_000);
    const read = sqlTag`(select coalesce(sum(seq_tup_read + idx_tup_fetch), 0) from pg_stat_xact_user_tables
      where relname = 'ledger_accounts')`;
    const batch = JSON.stringify([item(a.id, { to: b.id })]);
    const lease = new Date(Date.now() + 120_000).toISOString();
    let row: Record<string, unknown> | undefined;
    // Rolled back: the other tests of this database never see the extra wallets.
    await t.ctx.db
      .transaction(async (tx) => {
        // Wallets enough that reading them all would show; their owners need not exist for this.
        await tx.execute(sqlTag`insert into ledger_accounts (id, kind, owner_id)
          select gen_random_uuid(), 'wallet', gen_random_uuid() from generate_series(1, 400)`);
        // This connection's counts not yet reported include earlier statements': read before and after, in one go.
        const result = (await tx.execute(sqlTag`with posted as materialized (
            select outcome from cw_transfer_batch(${batch}::jsonb, ${lease}::timestamptz))
          select ${read} as before, (select string_agg(outcome, ',') from posted) as outcomes, ${read} as after`)) as {
          rows: Record<string, unknown>[];
        };
        row = result.rows[0];
        throw new RolledBack();
      })
      .catch((err) => {
        if (!(err instanceof RolledBack)) throw err;
      });
    expect(row!.outcomes).toBe('ok');
    // Its two wallets, each found, locked, updated and checked by the ledger's triggers: a few reads each.
    expect(Number(row!.after) - Number(row!.before)).toBeLessThan(40);
  });

  it("without a lease leaves the receivers' mail pending and due at once, for the mail job (SQL callers, cw_transfer)", async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1_000);
    const x = item(a.id, { to: b.id });
    const rows = await sql('select outcome, mails from cw_transfer_batch($1::jsonb)', [JSON.stringify([x])]);
    expect(rows).toEqual([{ outcome: 'ok', mails: null }]);
    const [n] = await sql(
      'select mail_state, mail_attempts, mail_next_attempt_at from notifications where event_key = $1',
      [`transfer:${x.transfer_id}`],
    );
    expect(n).toMatchObject({ mail_state: 'pending', mail_attempts: 0 });
    expect(new Date(n!.mail_next_attempt_at as string).getTime()).toBe(new Date(x.at).getTime());
  });
});
