import fc from 'fast-check';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ledgerAccounts, ledgerEntries, topups } from '../../server/db/schema';
import { feeAmount } from '@shared/fees';
import { centsOf } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';
import { APPROVAL_NOTE, balanceOf, makeMomoAgent, tronHash, walletOf, withMomoSettings } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * A model of three wallets driven through the HTTP API by random commands. After every run the
 * API's balances must equal the model's, and the ledger as a whole must hold together.
 */

type Method = 'tron' | 'momo';
type Command =
  | { kind: 'topup'; who: number; cents: number; method: Method; confirmed: boolean }
  | { kind: 'approve'; pick: number }
  | { kind: 'deny'; pick: number }
  | { kind: 'transfer'; from: number; to: number; cents: number };

const who = fc.integer({ min: 0, max: 2 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('topup' as const),
    who,
    cents: fc.integer({ min: 100, max: 40_000 }),
    method: fc.constantFrom<Method>('tron', 'momo'),
    confirmed: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('deny' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('transfer' as const), from: who, to: who, cents: fc.integer({ min: 1, max: 30_000 }) }),
);

const TRON_FEE = { type: 'percentage' as const, value: 50 }; // the default wallet-topup-tron: 0.50 %

interface OpenTopup {
  id: string;
  who: number;
  cents: number;
  method: Method;
  confirmed: boolean;
}

/** Ledger-wide invariants, each a query that must find nothing wrong. */
async function checkLedger(actorAccounts: string[]) {
  const db = t.ctx.db;
  // both drivers answer { rows }
  const rows = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: unknown[] }).rows;
  const drift = await rows(sql`
    select a.id from ledger_accounts a
      left join (select account_id, sum(amount) as s from ledger_entries group by account_id) e on e.account_id = a.id
     where a.balance <> coalesce(e.s, 0)`);
  expect(drift, 'accounts whose balance is not the sum of their entries').toEqual([]);
  const unbalanced = await rows(
    sql`select transfer_id from ledger_entries group by transfer_id having sum(amount) <> 0`,
  );
  expect(unbalanced, 'transfers whose entries do not sum to zero').toEqual([]);
  const lonely = await rows(sql`
    select t.id from ledger_transfers t left join ledger_entries e on e.transfer_id = t.id group by t.id having count(e.id) < 2`);
  expect(lonely, 'transfers with fewer than two entries').toEqual([]);
  const negative = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      sql`${ledgerAccounts.allowNegative} = false and ${ledgerAccounts.balance} < 0 and ${ledgerAccounts.kind} <> 'card'`,
    );
  expect(negative, 'accounts below zero that may not be').toEqual([]);
  // A card may owe (issue 32, other files' cards in a shared database): only a clearing, a force-post or a lost
  // dispute's take-back (issue 36) takes it there.
  const intoDebt = await db.execute(
    sql`select e.id from ledger_entries e
          join ledger_accounts a on a.id = e.account_id
          join ledger_transfers tr on tr.id = e.transfer_id
         where a.allow_negative = false and e.amount < 0 and e.balance_after < 0
           and coalesce(tr.meta->>'stage', '') not in ('cleared', 'force_posted', 'dispute_debit')`,
  );
  expect(
    (intoDebt as unknown as { rows: unknown[] }).rows,
    'movements below zero other than clearings, force-posts and dispute take-backs',
  ).toEqual([]);

  // No lost update: each account's entries chain from 0 to its balance, every "before" being
  // some earlier "after" (as multisets: befores + {balance} = afters + {0}).
  const accounts = await db.select().from(ledgerAccounts).where(inArray(ledgerAccounts.id, actorAccounts));
  for (const acc of accounts) {
    const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, acc.id));
    const befores = [...entries.map((e) => e.balanceBefore), acc.balance].sort((x, y) => x - y);
    const afters = [...entries.map((e) => e.balanceAfter), 0].sort((x, y) => x - y);
    expect(befores).toEqual(afters);
  }
}

it('keeps every wallet equal to the model and the ledger balanced, whatever happens', { timeout: 600_000 }, () =>
  withMomoSettings(async () => {
    const actors: Actor[] = [await newIndividual(t), await newIndividual(t), await newCompany(t)];
    const staff = await newStaff(t);
    const agent = await newIndividual(t);
    await makeMomoAgent(t, agent);
    const accountIds = (
      await t.ctx.db
        .select()
        .from(ledgerAccounts)
        .where(inArray(ledgerAccounts.ownerId, actors.map(walletOf)))
    ).map((a) => a.id);
    expect(accountIds).toHaveLength(3);

    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 20, maxLength: 20 }), async (commands) => {
        // The model starts from the wallets as they are (earlier runs leave money behind).
        const model = await Promise.all(actors.map(async (a) => centsOf(await balanceOf(t, a))));
        const open: OpenTopup[] = [];

        for (const c of commands) {
          if (c.kind === 'topup') {
            const a = actors[c.who]!;
            const res = await t.api('POST', '/wallet/topup-balance', {
              token: a.token,
              body: { wallet_id: walletOf(a), amount: c.cents / 100, method: c.method },
            });
            expect(res.status).toBe(201);
            const [row] = await t.ctx.db
              .select({ id: topups.id })
              .from(topups)
              .where(eq(topups.reference, res.body.data.reference));
            if (c.confirmed) {
              const body =
                c.method === 'tron'
                  ? { reference: res.body.data.reference, transaction_hash: tronHash() }
                  : { reference: res.body.data.reference };
              expect((await t.api('POST', '/wallet/topup-confirm', { token: a.token, body })).status).toBe(200);
              if (c.method === 'momo')
                expect(
                  (await t.api('POST', '/wallet/momo-confirm', { token: agent.token, body: { topup_id: row!.id } }))
                    .status,
                ).toBe(200);
            }
            open.push({ id: row!.id, who: c.who, cents: c.cents, method: c.method, confirmed: c.confirmed });
          } else if (c.kind === 'approve' || c.kind === 'deny') {
            if (!open.length) continue;
            const i = c.pick % open.length;
            const top = open[i]!;
            const body =
              c.kind === 'approve'
                ? { topup_id: top.id, action: 'approve', note: APPROVAL_NOTE }
                : { topup_id: top.id, action: 'deny', reason: 'Model says no' };
            const res = await t.api('POST', '/wallet/approve-topup', { token: staff.token, body });
            if (c.kind === 'deny' || top.confirmed) {
              expect(res.status).toBe(200);
              open.splice(i, 1);
              if (c.kind === 'approve')
                model[top.who]! += top.method === 'tron' ? top.cents - feeAmount(TRON_FEE, top.cents) : top.cents;
            } else {
              expect(res.status).toBe(409);
            }
          } else {
            const res = await t.api('POST', '/wallet/transfer', {
              token: actors[c.from]!.token,
              body: { wallet_id: walletOf(actors[c.to]!), amount: (c.cents / 100).toFixed(2) },
            });
            if (c.from === c.to) {
              expect(res.status).toBe(422);
              expect(res.body.error.wallet_id).toBeDefined();
            } else if (model[c.from]! < c.cents) {
              expect(res.status).toBe(422);
              expect(res.body.error.amount).toEqual(['Insufficient balance in your master wallet']);
            } else {
              expect(res.status).toBe(200);
              model[c.from]! -= c.cents;
              model[c.to]! += c.cents;
            }
          }
        }

        // Leave nothing open for the next run, so approvals there start from a clean slate.
        for (const top of open) {
          expect(
            (
              await t.api('POST', '/wallet/approve-topup', {
                token: staff.token,
                body: { topup_id: top.id, action: 'deny', reason: 'End of run' },
              })
            ).status,
          ).toBe(200);
        }
        for (const [i, a] of actors.entries()) expect(centsOf(await balanceOf(t, a)), `wallet ${i}`).toBe(model[i]);
        for (const m of model) expect(m).toBeGreaterThanOrEqual(0);
        await checkLedger(accountIds);
      }),
      { numRuns: 15 },
    );
  }),
);
