import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JOBS } from '../../server/jobs';
import { MAIL_LEASE_MS, sendDueMail } from '../../server/modules/notifications/mail';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, PASSWORD, newIndividual, newStaff, registerIndividual } from './support/actors';
import { apiCompany, startReceiver } from './support/api';
import { cardLedger, creationFee, expectLedgerConsistent, issuerBalance, newCard, rows } from './support/cards';
import { type Outcome, type Balancer, mailSubjects, msUntil, startProxy, withRetries } from './support/cluster';
import { fundWallet } from './support/money';
import { describeOnPostgres } from './support/postgres-only';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { type ServerProcess, call, killAll, startServer } from './support/process';
import { tronTopupReady } from './support/wallet';

/**
 * Issue 34, part 1: three server processes on one PostgreSQL behind a round-robin proxy, under a mixed load,
 * one killed (SIGKILL) and one restarted (SIGTERM, then started again) during it. Then: every answered request
 * took effect once, every retry with its key completed, every job, issuer operation, webhook, mail and chain
 * deposit happened once, the ledger holds, a logout or a deactivation reaches every instance within a second,
 * and the sign-in rate limit counts across instances.
 */
let t: TestApp;
let own: PrivateDatabase | null = null;
let boss: Actor;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-cluster-'));

beforeAll(async () => {
  own = await privatePostgres();
  if (!own) return;
  t = await startTestApp({}, { postgresUrl: own.url });
  boss = await newStaff(t, 'Super-Admin');
}, 120_000);
afterAll(async () => {
  killAll();
  await t?.close();
  await own?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** As production runs them, but for the sandbox chain and issuer: shared DATA_DIR (mail, uploads), small pools. */
const env = () => ({
  NODE_ENV: 'test',
  DATABASE_URL: own!.url,
  DATABASE_POOL_SIZE: '4',
  ENCRYPTION_KEY: '07'.repeat(32),
  TRON_XPUB:
    'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd',
  SEED: 'none',
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  RUN_JOBS: 'true',
  CHAIN_WATCH: 'true',
  CHAIN_POLL_SECONDS: '1',
  TRUST_PROXY: 'true',
  SHUTDOWN_DRAIN_SECONDS: '1',
  ISSUER_TIMEOUT_MS: '1000',
  ISSUER_RETRY_SECONDS: '1,2,5',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A text array parameter (drizzle's sql spreads a JS array into a row). */
const list = (xs: string[]) => sql`string_to_array(${xs.join(',')}, ',')`;
const count = async (q: ReturnType<typeof sql>) => Number((await rows(t, q))[0]?.n ?? 0);

async function fixtures() {
  const senders = await Promise.all(Array.from({ length: 4 }, () => newIndividual(t)));
  for (const s of senders) await fundWallet(t, s.id, 100_000);
  const holders = await Promise.all(Array.from({ length: 3 }, () => newIndividual(t)));
  const cards: string[] = [];
  for (const h of holders) {
    await fundWallet(t, h.id, 5_000 + creationFee('media', 5_000) + 100_000);
    cards.push((await newCard(t, h, { card_amount: '50.00' })).card.id);
  }
  // Cards from last month: this month's maintenance fee is the scheduled job's work.
  await rows(t, sql`update cards set created_at = now() - interval '40 days' where id = any(${list(cards)}::uuid[])`);
  const company = await apiCompany(t);
  await fundWallet(t, company.admin.companyId!, 100_000);
  const companyCard = (await newCard(t, company.admin, { card_amount: '50.00' })).card.id;
  const receiver = await startReceiver(t);
  const hook = await t.api('POST', '/third-party/callback-request', {
    token: company.admin.token,
    body: { callback_url: receiver.url, active: true },
  });
  expect(hook.status).toBe(200);
  const topups = [];
  for (const s of senders.slice(0, 3))
    topups.push(await tronTopupReady(t, s, '20.00'), await tronTopupReady(t, s, '7.00'));
  const addresses: string[] = [];
  for (const s of senders.slice(0, 3))
    addresses.push((await t.api('GET', `/wallet/deposit-address/${s.id}`, { token: s.token })).body.data.address);
  const newcomers = await Promise.all(Array.from({ length: 5 }, () => registerIndividual(t)));
  const staffMember = await newStaff(t, 'Admin');
  return { senders, holders, cards, company, companyCard, receiver, topups, addresses, newcomers, staffMember };
}

/** The first sign-in of someone registered: password, then their first authenticator code; answers the token. */
async function signIn(lb: { base: string }, email: string): Promise<string> {
  const login = await withRetries(lb, 'POST', '/account/login', { body: { email, password: PASSWORD } });
  if (login.status !== 200) return `login ${login.status} ${JSON.stringify(login.body)}`;
  const code = await generate({ secret: login.body.data.secret, epoch: Math.floor(Date.now() / 1000) });
  const body = { token: login.body.data.token, code };
  const confirm = await withRetries(lb, 'POST', '/account/auth-confirm', { body });
  if (confirm.status !== 200)
    return `confirm ${confirm.status} after ${confirm.tries} tries ${JSON.stringify(confirm.body)}`;
  return `token ${confirm.body.data.access_token}`;
}

describeOnPostgres('three instances on one PostgreSQL, one killed and one restarted under load', () => {
  it('loses nothing, does nothing twice, and shares sessions and rate limits', { timeout: 240_000 }, async () => {
    const f = await fixtures();
    const servers: ServerProcess[] = await Promise.all([startServer(env()), startServer(env()), startServer(env())]);
    const proxy: Balancer = await startProxy(servers.map((s) => s.base));
    const lb = { base: proxy.base };
    const loadStart = new Date();

    // The load: every kind of request at once, each client paced so that it spans the kill and the restart.
    const until = Date.now() + 10_000;
    const transfers: Array<{ ref: string; out: Outcome }> = [];
    const transferring = f.senders.map(async (s, i) => {
      for (let n = 0; Date.now() < until; n++) {
        const ref = `cluster-${i}-${n}-${randomUUID().slice(0, 8)}`;
        const to = f.senders[(i + 1) % f.senders.length]!.id;
        const out = await withRetries(lb, 'POST', '/wallet/transfer', {
          token: s.token,
          key: randomUUID(),
          body: { wallet_id: to, amount: '0.25', reference: ref },
        });
        transfers.push({ ref, out });
        await sleep(100);
      }
    });
    const fundings: Outcome[] = [];
    const funding = f.holders.map(async (h, i) => {
      for (let n = 0; n < 4; n++) {
        fundings.push(
          await withRetries(lb, 'POST', '/cards/add-funds', {
            token: h.token,
            key: randomUUID(),
            body: { card: f.cards[i], amount: '3.00' },
          }),
        );
        await sleep(2_500);
      }
    });
    const approving = (async () => {
      const outs: Outcome[] = [];
      for (const top of f.topups) {
        outs.push(
          await withRetries(lb, 'POST', '/wallet/approve-topup', {
            token: boss.token,
            key: randomUUID(),
            body: { topup_id: top.id, action: 'approve', note: 'Checked on a Tron explorer: paid.' },
          }),
        );
        await sleep(1_800);
      }
      return outs;
    })();
    const charging = (async () => {
      const outs: Array<{ status: number }> = [];
      for (let n = 0; n < 8; n++) {
        // A merchant's authorisation has no key to retry with: each is sent once, whatever happens to it.
        outs.push(
          await call(lb, 'POST', '/sandbox/authorizations', {
            token: boss.token,
            body: {
              card_id: f.companyCard,
              amount: '1.00',
              merchant: 'Jumia Ghana',
              mcc: '5999',
              country: 'GH',
              currency: 'USD',
            },
          }),
        );
        await sleep(1_400);
      }
      return outs;
    })();
    const hashes: string[] = [];
    const depositing = (async () => {
      for (let n = 0; n < 6; n++) {
        const sent = await withRetries(lb, 'POST', '/sandbox/chain/transfers', {
          token: boss.token,
          body: { to: f.addresses[n % 3], amount: '4.00', confirmations: 30 },
        });
        if (sent.status === 201) hashes.push(sent.body.data.hash);
        await sleep(2_000);
      }
    })();
    const signedIn = (async () => {
      const tokens: string[] = [];
      for (const c of f.newcomers) {
        tokens.push(await signIn(lb, c.email));
        await sleep(2_000);
      }
      return tokens;
    })();

    let restarted = '';
    // The faults: an instance dies at once; another is restarted the way a deploy does it.
    const chaos = (async () => {
      await sleep(3_000);
      servers[0]!.child.kill('SIGKILL');
      expect(await servers[0]!.exited()).toBe(137);
      const replacement = startServer(env());
      await sleep(2_000);
      restarted = servers[1]!.base;
      const leaving = servers[1]!;
      const started = Date.now();
      const code = await leaving.stop();
      const shutdown = leaving.output().slice(leaving.output().indexOf('"shutting down"') - 200);
      expect(code, `exit after ${Date.now() - started} ms: ${shutdown}`).toBe(0);
      servers[1] = await startServer(env());
      servers[0] = await replacement;
      proxy.set(servers.map((s) => s.base));
    })();
    await Promise.all([...transferring, ...funding, approving, charging, depositing, signedIn, chaos]);
    const approvals = await approving;
    const charges = await charging;
    const tokens = await signedIn;

    // Every client that retried got its answer: nothing stayed unanswered or failed.
    for (const { out } of transfers) expect(out.status, JSON.stringify(out.body)).toBe(200);
    for (const out of fundings) expect(out.status, JSON.stringify(out.body)).toBe(200);
    for (const out of approvals) expect(out.status, JSON.stringify(out.body)).toBe(200);
    for (const x of tokens) expect(x).toMatch(/^token /);
    expect(hashes).toHaveLength(6);
    const retried = [...transfers.map((x) => x.out), ...fundings, ...approvals].filter((o) => o.tries > 1).length;
    console.info(
      `cluster: ${transfers.length} transfers, ${retried} requests retried, ${[...proxy.failures.values()].reduce((a, b) => a + b, 0)} cut at an instance`,
    );

    // Wait for the background work: the issuer outbox, webhooks, mail, the chain watcher.
    const background = async () => ({
      outbox: await count(sql`select count(*) n from issuer_operations where state = 'pending'`),
      webhooks: await count(sql`select count(*) n from webhook_events where state = 'pending'`),
      deposits: await count(sql`select count(*) n from chain_deposits where hash = any(${list(hashes)})`),
      jobs: await count(sql`select count(distinct job) n from job_runs where finished_at is not null`),
    });
    await waitFor(async () => {
      const b = await background();
      return b.outbox === 0 && b.webhooks === 0 && b.deposits === 6 && b.jobs >= JOBS.length ? null : b;
    });

    // Transfers: each answered one is in the ledger once, retries were replays.
    const refs = transfers.map((x) => x.ref);
    expect(
      await rows(
        t,
        sql`select r from unnest(${list(refs)}) r left join ledger_transfers lt on lt.kind = 'transfer'
        and lt.description = r group by r having count(lt.id) <> 1`,
      ),
    ).toEqual([]);
    // Card fundings: each one's issuer load performed once; the issuer and the ledger agree on every card.
    for (const [i, card] of f.cards.entries()) {
      expect(
        await count(sql`select count(*) n from issuer_operations where card_id = ${card} and purpose = 'card-funding'`),
      ).toBe(4);
      expect(
        await count(sql`select count(*) n from ledger_transfers where reference like ${`MNT-%-${card}`}`),
        `card ${i}'s monthly fee`,
      ).toBe(1);
      expect(await issuerBalance(t, card)).toBe((await cardLedger(t, card)).available);
    }
    expect(
      await count(sql`select count(*) n from issuer_operations o left join sandbox_operations s on s.op_id = o.id
      where o.state = 'done' and o.operation in ('load', 'unload') and s.op_id is null`),
    ).toBe(0);
    // Top-ups: each approved once, whichever instance took the retry.
    const ids = f.topups.map((x) => x.id);
    expect(
      await count(sql`select count(*) n from topups where id = any(${list(ids)}::uuid[]) and state = 'Approved'`),
    ).toBe(6);
    // Chain deposits: each credited once.
    expect(
      await rows(
        t,
        sql`select hash from chain_deposits where hash = any(${list(hashes)}) group by hash having count(*) <> 1`,
      ),
    ).toEqual([]);
    expect(
      await count(
        sql`select count(*) n from topups where transaction_hash = any(${list(hashes)}) and state = 'Approved'`,
      ),
    ).toBe(6);
    // Jobs: one run per job and period, each ran.
    expect(await rows(t, sql`select job, period from job_runs group by job, period having count(*) > 1`)).toEqual([]);
    const ran = (await rows(t, sql`select distinct job from job_runs where finished_at is not null`)).map((r) => r.job);
    for (const job of JOBS) expect(ran, job.name).toContain(job.name);

    // Webhooks: every event delivered; each arrived once, but for one whose record a SIGKILL may have lost.
    const events = await rows(
      t,
      sql`select e.message_id, e.state, count(d.id) filter (where d.status_code between 200 and 299) ok
      from webhook_events e left join webhook_deliveries d on d.event_id = e.id
      where e.company_id = ${f.company.admin.companyId} group by e.id`,
    );
    const approvedCharges = charges.filter((c) => c.status === 201).length;
    expect(events.length).toBeGreaterThanOrEqual(approvedCharges);
    expect(events.length).toBeLessThanOrEqual(charges.length);
    const got = new Map<string, number>();
    for (const r of f.receiver.received)
      got.set(String(r.headers['webhook-id']), (got.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    const twice = events.filter((e) => (got.get(String(e.message_id)) ?? 0) !== 1);
    for (const e of events) expect(e.state).toBe('delivered');
    expect(twice.length, `webhooks not received exactly once: ${JSON.stringify(twice)}`).toBeLessThanOrEqual(1);

    // Mail: each notification mailed since the load began is in one mail file. One the SIGKILLed instance had claimed
    // stays its own until the lease ends (2 min), then another sends it: shown by this process's worker with its clock
    // past the lease. Such a mail is in at most one file before (sent, the record lost with the process).
    const mailedQuery = sql`select title, mail_state, mail_attempts from notifications
      where created_at >= ${loadStart} and mail_state is not null`;
    const before = await rows(t, mailedQuery);
    const claimed = before.filter((m) => m.mail_state !== 'sent');
    expect(claimed.filter((m) => m.mail_state !== 'pending' || Number(m.mail_attempts) !== 1)).toEqual([]);
    expect(before.filter((m) => m.mail_state === 'sent' && Number(m.mail_attempts) !== 1)).toEqual([]);
    t.clock.advance(MAIL_LEASE_MS + 1_000);
    await sendDueMail(t.ctx);
    expect((await rows(t, mailedQuery)).filter((m) => m.mail_state !== 'sent')).toEqual([]);
    const subjects = mailSubjects(dataDir);
    for (const title of new Set(before.map((m) => String(m.title)))) {
      const sent = before.filter((m) => m.title === title && m.mail_state === 'sent').length;
      const late = claimed.filter((m) => m.title === title).length;
      const files = subjects.filter((x) => x === title).length;
      expect(files, `mail "${title}"`).toBeGreaterThanOrEqual(sent);
      expect(files, `mail "${title}"`).toBeLessThanOrEqual(sent + late);
      expect(t.mails.filter((m) => m.subject === title).length, `mail "${title}" after the lease`).toBe(late);
    }
    expect(before.length).toBeGreaterThanOrEqual(6 + 6 + 3); // approvals, chain deposits, maintenance fees

    // The ledger holds; the issuer's books and ours agree.
    await expectLedgerConsistent(t, expect);
    const recon = await call(lb, 'POST', '/reconciliation/run', { token: boss.token });
    expect(recon.status).toBe(200);
    expect(recon.body.data.drift).toEqual([]);

    // The graceful restart cost no request: readiness said 503 while it drained, so the proxy stopped sending it any
    // before it closed. (The SIGKILLed one did cost requests: those are the retries above.)
    expect(proxy.failures.get(restarted) ?? 0).toBe(0);
    await sessionsAndLimits(servers, proxy, f);
    await proxy.close();
    await f.receiver.close();
    await Promise.all(servers.map((s) => s.stop()));
  });
});

/** Waits until `pending` answers null (nothing left); otherwise it answers what is left, for the error. */
async function waitFor(pending: () => Promise<unknown>, ms = 90_000) {
  const until = Date.now() + ms;
  for (let left = await pending(); left !== null; left = await pending()) {
    if (Date.now() > until)
      throw new Error(`the instances did not finish their background work: ${JSON.stringify(left)}`);
    await sleep(300);
  }
}

/** A logout and a deactivation on one instance reach the others within a second; the login limit counts across them. */
async function sessionsAndLimits(servers: ServerProcess[], proxy: Balancer, f: Awaited<ReturnType<typeof fixtures>>) {
  const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
  const who = f.senders[3]!;
  const balance = (s: { base: string }) => async () =>
    (await call(s, 'GET', `/wallet/account-balance/${who.id}`, { token: who.token })).status;
  for (const s of [b, c]) for (let i = 0; i < 2; i++) expect(await balance(s)()).toBe(200); // cached there
  expect((await call(a, 'DELETE', '/account/logout', { token: who.token })).status).toBe(200);
  for (const s of [b, c]) expect(await msUntil(balance(s), 401)).toBeLessThan(1_000);

  const staff = f.staffMember;
  const bell = (s: { base: string }) => async () =>
    (await call(s, 'GET', '/notifications', { token: staff.token })).status;
  for (const s of [b, c]) for (let i = 0; i < 2; i++) expect(await bell(s)()).toBe(200);
  expect((await call(a, 'POST', `/account/admins/${staff.id}/deactivate`, { token: boss.token })).status).toBe(200);
  for (const s of [b, c]) expect(await msUntil(bell(s), 401)).toBeLessThan(1_000);

  // Five wrong passwords spread over the three instances lock the account (per account and address) on all of them.
  const email = f.newcomers[0]!.email;
  const before = new Map(proxy.answered);
  for (let i = 0; i < 5; i++)
    expect(
      (await call({ base: proxy.base }, 'POST', '/account/login', { body: { email, password: `Wr0ng!Pass${i}` } }))
        .status,
    ).toBe(401);
  const reached = [...proxy.answered].filter(([k, n]) => n > (before.get(k) ?? 0)).length;
  expect(reached).toBe(3);
  for (const s of servers)
    expect((await call(s, 'POST', '/account/login', { body: { email, password: PASSWORD } })).status).toBe(429);
}
