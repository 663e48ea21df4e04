/**
 * The synthetic history the data-heavy benchmarks load (bench/statistics.ts, bench/lists.ts),
 * written straight into the database in batches: owners and their wallets (every fourth a
 * company's), cards with their two accounts, ledger transfers and entries over one year, card
 * transactions and top-ups. `extras` adds what only the lists need (wallet-to-wallet transfers,
 * verifications, audit rows, webhook events, API clients).
 *
 * Row i of a table of n rows is at BASE + i × (one year / n), so figures can be computed from
 * the formulas here (bench/statistics.ts does).
 */
import { sql } from 'drizzle-orm';
import { PLATFORM } from '../server/modules/ledger/accounts';
import {
  type Exec,
  createBalances,
  deriveWalletTables,
  onOneConnection,
  postEntriesBulk,
  settleBalances,
  withoutSecondaryIndexes,
} from './dataset-bulk';
import { inBatches, secs, withoutLedgerGuards } from './support';
import type { BenchApp } from './support';

export interface DatasetSize {
  wallets: number;
  cards: number;
  /** ledger transfers (each 2-4 entries) */
  transfers: number;
  cardTransactions: number;
  topups: number;
  extras?: { walletTransfers: number; audit: number; webhookEvents: number };
  /**
   * Blocks of ten transfers (six of them wallet movements) that go to wallet 1 (an individual's)
   * instead of their own wallet, in thousandths of the blocks after each wallet's first (which
   * stays its own, so that every wallet has money for the wallet-to-wallet transfers).
   */
  busyPerMille?: number;
  /** every this many owners' last name is 'Mensah' (a name a few dozen people share), else 'User <n>' */
  sharedNameEvery?: number;
}

export const BASE_MS = Date.parse('2021-01-01T00:00:00.000Z');
export const YEAR_MS = 365 * 86_400_000;
/** Row i of a table of n rows is at BASE + i × (one year / n), whole milliseconds. */
export const stepOf = (n: number) => Math.floor(YEAR_MS / n);
const BASE = new Date(BASE_MS).toISOString();

/**
 * Transfer i is leg set i % 10 of block i / 10, on wallet (i / 10) % WALLETS and card
 * (i / 10) % CARDS: each block credits the wallet before debiting it and funds the card before
 * charging it, so no balance ever goes below zero. Amounts in cents: [kind, fee, legs].
 */
export const LEGS = `
  (values
    (0, 'deposit',            100, -10000::bigint, 9900::bigint,    0::bigint,   0::bigint, 100::bigint),
    (1, 'issuance',            35,      0,        -1035,         1000,           0,          35),
    (2, 'maintenance',        100,      0,            0,         -100,           0,         100),
    (3, 'card_authorization',   0,      0,            0,         -200,         200,           0),
    (4, 'topup',               25,      0,         -525,          500,           0,          25),
    (5, 'withdraw',            57,      0,          100,         -157,           0,          57),
    (6, 'deposit',            200, -20000,        19800,            0,           0,         200),
    (7, 'maintenance',        100,      0,            0,         -100,           0,         100),
    (8, 'deposit',             50,  -5000,         4950,            0,           0,          50),
    (9, 'card_authorization',   0,      0,            0,         -300,         300,           0)
  ) as k(k, kind, fee, tron, wallet, card, hold, income)`;

/** A stable id per tag and number, a valid version-4 UUID (the API's uuid fields check the version and variant). */
export const uuidOf = (tag: string, expr: string) =>
  `overlay(overlay(md5('bench-${tag}-' || (${expr})) placing '4' from 13) placing '8' from 17)::uuid`;
/** The owner of wallet number `w` (an SQL expression): a company for every fourth, else a user. */
export const ownerOf = (w: string) =>
  `case when (${w}) % 4 = 0 then ${uuidOf('company', w)} else ${uuidOf('user', w)} end`;
/** Spread over the year: row `i` of `n`. */
const atOf = (i: string, n: number) => `'${BASE}'::timestamptz + (${i}) * interval '${stepOf(n)} milliseconds'`;
const FIRST = `(array['Ama','Kofi','Yaw','Akosua','Kwame','Esi','Kojo','Abena','Adwoa','Kwaku','John','Mary','Peter','Grace','David','Sarah'])`;

/**
 * 'bulk' (the default; bench/dataset-bulk.ts) loads the ledger without triggers and derives what they write;
 * 'triggers' posts it as the app does, for bench/dataset-compare.ts to hold the two equal.
 */
export type LoadMode = 'bulk' | 'triggers';

export async function loadDataset(t: BenchApp, s: DatasetSize, batch: number, mode: LoadMode = 'bulk'): Promise<void> {
  const exec = (text: string) => t.ctx.db.execute(sql.raw(text));
  const W = s.wallets;

  // Owners and their wallets: every fourth wallet a company's, with its Company-Admin. States
  // vary (verified, in review, unverified, rejected; every 13th deactivated) for the filters.
  await exec(`
    insert into companies (id, company_name, company_website, company_email, company_phone, state, deactivated_at, created_at)
    select ${uuidOf('company', 'w')}, 'Bench Co ' || w, 'https://bench.example.com', 'co' || w || '@bench.example.com', '+233302000000',
           (array['Verified', 'Verified', 'pending', 'Unverified', 'Rejected'])[1 + (w / 4) % 5], case when w % 13 = 0 then at end, at
    from (select w, ${atOf('w', W)} as at from generate_series(0, ${W - 1}) as g(w)) s where w % 4 = 0`);
  const lastName = s.sharedNameEvery
    ? `case when w % ${s.sharedNameEvery} = 7 then 'Mensah' else 'User ' || w end`
    : `'User ' || w`;
  await inBatches(W, batch, 'users', async (from, to) => {
    await exec(`
      insert into users (id, email, first_name, last_name, role, company_id, state, deactivated_at, email_verified_at, created_at)
      select ${uuidOf('user', 'w')}, 'user' || w || '@bench.example.com', ${FIRST}[1 + w % 16], ${lastName},
             case when w % 4 = 0 then 'Company-Admin' else 'Individual' end, case when w % 4 = 0 then ${uuidOf('company', 'w')} end,
             (array['Verified', 'Verified', 'pending', 'Unverified', 'Rejected'])[1 + w % 5], case when w % 13 = 0 then at end, at, at
      from (select w, ${atOf('w', W)} as at from generate_series(${from - 1}, ${to - 1}) as g(w)) s`);
  });
  await exec(`
    insert into ledger_accounts (id, kind, owner_id, currency)
    select ${uuidOf('wallet', 'w')}, 'wallet', ${ownerOf('w')}, 'USDT' from generate_series(0, ${W - 1}) as g(w)`);

  // Cards of every purpose, type and state, created through the year, with their two accounts.
  await inBatches(s.cards, batch, 'cards', async (from, to) => {
    await exec(`
      insert into cards (id, wallet_id, created_by, first_name, last_name, nickname, purpose, type, issuer_token, last4, masked_number, exp_month, exp_year, billing, state, deleted_at, created_at, updated_at)
      select ${uuidOf('card', 'c')}, ${ownerOf(`c % ${W}`)}, ${uuidOf('user', `c % ${W}`)}, ${FIRST}[1 + c % 16], 'Card ' || c, 'bench-' || c,
             (array['general', 'media', 'tokencard'])[1 + c % 3], case when c % 2 = 0 then 'basic' else 'premium' end,
             'bench-' || c, lpad((c % 10000)::text, 4, '0'), '4242 **** **** ' || lpad((c % 10000)::text, 4, '0'), 12, 2030, '{}'::jsonb,
             case when c % 5 = 0 then 'Deactivated' else 'Active' end,
             case when c % 11 = 0 then at end, at, at
      from (select c, ${atOf('c', s.cards)} as at from generate_series(${from - 1}, ${to - 1}) as g(c)) s`);
    await exec(`
      insert into ledger_accounts (id, kind, owner_id, currency)
      select ${uuidOf('card-account', 'c')}, 'card', ${uuidOf('card', 'c')}, 'USD' from generate_series(${from - 1}, ${to - 1}) as g(c)
      union all
      select ${uuidOf('hold-account', 'c')}, 'card_hold', ${uuidOf('card', 'c')}, 'USD' from generate_series(${from - 1}, ${to - 1}) as g(c)`);
  });

  // Ledger transfers and their entries, each leg's balance continuing from its account's last entry.
  if (mode === 'bulk') await onOneConnection(t.database, (one) => loadLedger(one, s, batch, 'bulk'));
  else await withoutLedgerGuards(exec, () => loadLedger(exec, s, batch, 'triggers'));

  // Card transactions: authorisations of every outcome, settlements and reversals.
  await inBatches(s.cardTransactions, batch, 'card transactions', async (from, to) => {
    await exec(`
      insert into card_transactions (id, card_id, kind, status, amount, merchant, country, description, created_at, updated_at)
      select ${uuidOf('card-tx', 'i')}, ${uuidOf('card', `i % ${s.cards}`)},
             case when i % 10 < 7 then 'authorization' when i % 10 < 9 then 'settlement' else 'reversal' end,
             case when i % 10 >= 7 then 'settled' else (array['approved', 'settled', 'declined', 'reversed'])[1 + i % 4] end,
             100 + i % 5000, 'Bench Shop', 'GH', 'Bench purchase', at, at
      from (select i, ${atOf('i', s.cardTransactions)} as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
  });

  // Top-up requests: three in five approved, decided through the year.
  await inBatches(s.topups, batch, 'top-ups', async (from, to) => {
    await exec(`
      insert into topups (id, wallet_id, reference, code, method, amount, state, created_by, decided_at, created_at, updated_at)
      select ${uuidOf('topup', 'i')}, ${ownerOf(`i % ${W}`)}, 'BENCH-TP-' || lpad(i::text, 8, '0'), lpad((i % 1000000)::text, 6, '0'),
             case when i % 2 = 0 then 'Tron' else 'Momo' end, 1000 + i % 90000,
             (array['Approved', 'Approved', 'Approved', 'Denied', 'Pending'])[1 + i % 5], ${uuidOf('user', `i % ${W}`)},
             case when i % 5 < 4 then at end, at, at
      from (select i, ${atOf('i', s.topups)} as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
  });

  if (s.extras) await loadExtras(exec, s, batch);
}

/**
 * The ledger: transfers over the year, then wallet-to-wallet transfers, each with its entries.
 * 'triggers': as the app posts (statement triggers fill the wallet tables), the commit-time guards
 * off; 'bulk' (bench/dataset-bulk.ts): no triggers, the wallet tables derived after.
 */
async function loadLedger(exec: Exec, s: DatasetSize, batch: number, mode: LoadMode) {
  const W = s.wallets;
  const post = (rows: string, legs: string, tag: string) =>
    mode === 'bulk'
      ? postEntriesBulk(exec, rows, legs, uuidOf(`entry-${tag}`, "i || '-' || acc"), uuidOf(tag, 'i'))
      : postEntries(exec, rows, legs, tag);
  const walletOfBlock = s.busyPerMille
    ? `case when i / 10 >= ${W} and (i / 10) % 1000 < ${s.busyPerMille} then 1 else (i / 10) % ${W} end`
    : `(i / 10) % ${W}`;
  const load = async () => {
    await inBatches(s.transfers, batch, 'ledger transfers', async (from, to) => {
      const rows = `
        select i, k.*, ${uuidOf('wallet', walletOfBlock)} as wallet_acc, ${uuidOf('card-account', `(i / 10) % ${s.cards}`)} as card_acc,
               ${uuidOf('hold-account', `(i / 10) % ${s.cards}`)} as hold_acc, ${atOf('i', s.transfers)} as at
        from generate_series(${from - 1}, ${to - 1}) as g(i) join ${LEGS} on k.k = i % 10`;
      await exec(`
        insert into ledger_transfers (id, kind, reference, description, meta, created_at)
        select ${uuidOf('transfer', 'i')}, kind, 'BENCH-' || lpad(i::text, 8, '0'), 'Statistics benchmark', jsonb_build_object('fees_total', fee), at
        from (${rows}) b`);
      await post(
        rows,
        `(values ('${PLATFORM.tronDeposits}'::uuid, b.tron, 1), (b.wallet_acc, b.wallet, 2), (b.card_acc, b.card, 3), (b.hold_acc, b.hold, 4), ('${PLATFORM.feeIncome}'::uuid, b.income, 5))`,
        'transfer',
      );
    });
    // Wallet-to-wallet transfers of 1.00 (wallet j to j + 1), after the year: every wallet has
    // been credited by then, so none goes below zero.
    const n = s.extras?.walletTransfers ?? 0;
    if (n) {
      const after = `'${new Date(BASE_MS + YEAR_MS).toISOString()}'::timestamptz`;
      await inBatches(n, batch, 'wallet transfers', async (from, to) => {
        const rows = `
          select j as i, ${uuidOf('wallet', `j % ${W}`)} as from_acc, ${uuidOf('wallet', `(j + 1) % ${W}`)} as to_acc,
                 ${ownerOf(`j % ${W}`)} as from_owner, ${ownerOf(`(j + 1) % ${W}`)} as to_owner, ${uuidOf('user', `j % ${W}`)} as by,
                 ${after} + j * interval '1 second' as at
          from generate_series(${from - 1}, ${to - 1}) as g(j)`;
        await exec(`
          insert into ledger_transfers (id, kind, reference, description, meta, created_by, created_at)
          select ${uuidOf('w2w', 'i')}, 'transfer', 'BENCH-W2W-' || lpad(i::text, 8, '0'), 'Bench transfer',
                 jsonb_build_object('fees_total', 0, 'wallet_from', from_owner, 'wallet_to', to_owner, 'reference', 'rent ' || i), by, at
          from (${rows}) b`);
        await post(rows, `(values (b.from_acc, -100::bigint, 1), (b.to_acc, 100::bigint, 2))`, 'w2w');
      });
    }
  };
  if (mode === 'triggers') {
    await load();
    await exec(`
      update ledger_accounts a set balance = last.balance_after
      from (select distinct on (account_id) account_id, balance_after from ledger_entries order by account_id, created_at desc, id desc) last
      where last.account_id = a.id`);
    return;
  }
  const started = performance.now();
  await createBalances(exec);
  await exec('set session_replication_role = replica');
  await withoutSecondaryIndexes(exec, ['ledger_entries', 'ledger_transfers'], load);
  process.stdout.write(`  ledger loaded, its indexes built: ${secs(performance.now() - started)}\n`);
  await deriveWalletTables(exec);
  // Back to origin: the balances' update fires the balance monitors as the trigger path's does; the commit-time
  // guard (each balance against its account's last entry) is off, as in the trigger path (2.7 million lookups at
  // N = 10,000,000; bench/dataset-compare.ts checks the balances instead).
  await exec('reset session_replication_role');
  await withoutLedgerGuards(exec, () => settleBalances(exec));
  process.stdout.write(`  wallet tables derived, balances set: ${secs(performance.now() - started)}\n`);
}

/**
 * The entries of a batch of transfers (`rows` has i and at; `legs` names (account, amount) per
 * row b), balances carried on. Ids are stable so that two runs' answers can be compared.
 */
async function postEntries(exec: Exec, rows: string, legs: string, tag: string) {
  await exec(`
    with b as (${rows}),
    legs as (select b.i, b.at, l.acc, l.amount from b cross join lateral ${legs} as l(acc, amount, n) where l.amount <> 0),
    carried as materialized (
      select a.id, coalesce((select e.balance_after from ledger_entries e where e.account_id = a.id order by e.created_at desc, e.id desc limit 1), 0) as balance
      from ledger_accounts a where a.id in (select distinct acc from legs)
    )
    insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
    select ${uuidOf(`entry-${tag}`, "i || '-' || acc")}, ${uuidOf(tag, 'i')}, acc, amount, c.balance + run - amount, c.balance + run, at
    from (select legs.*, sum(amount) over (partition by acc order by i) as run from legs) r join carried c on c.id = r.acc
    order by r.i`);
}

/** Verifications (one per owner), audit rows, API clients and webhook events with deliveries. */
async function loadExtras(exec: (text: string) => Promise<unknown>, s: DatasetSize, batch: number) {
  const W = s.wallets;
  const x = s.extras!;
  await exec(`
    insert into verifications (id, account_type, account_id, submitted_by, state, data, documents, created_at, updated_at)
    select ${uuidOf('verification', 'w')}, case when w % 4 = 0 then 'company' else 'individual' end, ${ownerOf('w')}, ${uuidOf('user', 'w')},
           (array['pending', 'approved', 'approved', 'rejected'])[1 + w % 4], '{}'::jsonb, '{}'::jsonb, at, at
    from (select w, ${atOf('w', W)} as at from generate_series(0, ${W - 1}) as g(w)) s`);
  await inBatches(x.audit, batch, 'audit rows', async (from, to) => {
    await exec(`
      insert into audit_log (id, actor_id, actor_email, actor_role, action, object_type, object_id, details, status, ip, created_at)
      select ${uuidOf('audit', 'i')}, ${uuidOf('user', `i % ${W}`)}, 'user' || (i % ${W}) || '@bench.example.com', 'Admin',
             (array['card.freeze', 'topup.approve', 'verification.approve', 'fee.update', 'user.deactivate'])[1 + i % 5],
             (array['card', 'topup', 'verification', 'fee', 'user'])[1 + i % 5], (i % 1000)::text, '{}'::jsonb, 200, '10.0.0.1', at
      from (select i, ${atOf('i', x.audit)} as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
  });
  // Every fortieth company has API credentials; webhook events spread over those companies.
  await exec(`
    insert into api_clients (id, company_id, name, client_id, secret_hash, created_by, created_at, updated_at)
    select ${uuidOf('client', 'w')}, ${uuidOf('company', 'w')}, 'Bench client ' || w, 'bench-client-' || w, md5(w::text), ${uuidOf('user', 'w')}, at, at
    from (select w, ${atOf('w', W)} as at from generate_series(0, ${W - 1}, 40) as g(w)) s`);
  const clients = Math.ceil(W / 40);
  await inBatches(x.webhookEvents, batch, 'webhook events', async (from, to) => {
    const rows = `select i, ${uuidOf('company', `(i % ${clients}) * 40`)} as company, ${atOf('i', x.webhookEvents)} as at from generate_series(${from - 1}, ${to - 1}) as g(i)`;
    await exec(`
      insert into webhook_events (id, message_id, company_id, type, payload, state, attempts, next_attempt_at, delivered_at, created_at)
      select ${uuidOf('event', 'i')}, 'msg_bench_' || i, company, 'card.transaction', '{}'::jsonb,
             (array['delivered', 'delivered', 'delivered', 'failed', 'pending'])[1 + i % 5], 1, at, case when i % 5 < 3 then at end, at
      from (${rows}) s`);
    await exec(`
      insert into webhook_deliveries (id, event_id, url, attempt, status_code, duration_ms, created_at)
      select ${uuidOf('delivery', 'i')}, ${uuidOf('event', 'i')}, 'https://hooks.bench.example.com', 1, case when i % 5 < 3 then 200 else 500 end, 40, at
      from (${rows}) s`);
  });
}
