import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { momoSettings } from '../../../server/db/schema';
import type { Actor } from './actors';
import type { TestApp } from './app';

/** An Individual's wallet is their id; a company user's is the company's. */
export const walletOf = (a: Actor) => a.companyId ?? a.id;

export const tronHash = () => randomBytes(32).toString('hex');

export async function balanceOf(t: TestApp, a: Actor): Promise<string> {
  const res = await t.api('GET', `/wallet/account-balance/${walletOf(a)}`, { token: a.token });
  if (res.status !== 200) throw new Error(`balance ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export const topupBody = (a: Actor, amount: unknown, method: 'tron' | 'momo' = 'tron') => ({
  wallet_id: walletOf(a),
  amount,
  method,
});

/** Creates a top-up and answers its instructions (reference, code, …). */
export async function startTopup(t: TestApp, a: Actor, amount: string, method: 'tron' | 'momo' = 'tron') {
  const res = await t.api('POST', '/wallet/topup-balance', { token: a.token, body: topupBody(a, amount, method) });
  if (res.status !== 201) throw new Error(`topup-balance ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as {
    reference: string;
    code: string;
    amount: string;
    momo?: Record<string, string>;
    tron?: Record<string, string>;
  };
}

/** The customer's view of one of their top-ups (id, state, reason, …). */
export async function topupRow(t: TestApp, a: Actor, reference: string) {
  const res = await t.api('GET', `/reports/view-wallet-topups?wallet=${walletOf(a)}&per_page=100`, { token: a.token });
  if (res.status !== 200) throw new Error(`view-wallet-topups ${res.status}`);
  const row = res.body.data.find((r: { reference: string }) => r.reference === reference);
  if (!row) throw new Error(`no top-up ${reference}`);
  return row;
}

/** A Tron top-up with its hash provided, ready for approval; answers its id and reference. */
export async function tronTopupReady(t: TestApp, a: Actor, amount: string) {
  const top = await startTopup(t, a, amount, 'tron');
  const conf = await t.api('POST', '/wallet/topup-confirm', {
    token: a.token,
    body: { reference: top.reference, transaction_hash: tronHash() },
  });
  if (conf.status !== 200) throw new Error(`topup-confirm ${conf.status} ${JSON.stringify(conf.body)}`);
  return { id: (await topupRow(t, a, top.reference)).id as string, reference: top.reference };
}

/** The hashes tests give are not on the sandbox chain, so an approval carries the note staff must then give. */
export const APPROVAL_NOTE = 'Checked on a Tron explorer: paid.';

export const decide = (t: TestApp, staff: Actor, topupId: string, action: 'approve' | 'deny', reason?: string) =>
  t.api('POST', '/wallet/approve-topup', {
    token: staff.token,
    body: {
      topup_id: topupId,
      action,
      ...(reason === undefined ? {} : { reason }),
      ...(action === 'approve' ? { note: APPROVAL_NOTE } : {}),
    },
  });

/** Adds users to the momo confirmers (atomically, keeping whoever is there). */
export async function makeMomoAgent(t: TestApp, ...users: Actor[]) {
  await t.ctx.db
    .update(momoSettings)
    .set({ entityUsers: sql`${momoSettings.entityUsers} || ${JSON.stringify(users.map((u) => u.id))}::jsonb` })
    .where(eq(momoSettings.id, 1));
}

/** Adds an address to the momo alert list (atomically). */
export async function addMomoAlertEmail(t: TestApp, email: string) {
  await t.ctx.db
    .update(momoSettings)
    .set({ alertEmails: sql`${momoSettings.alertEmails} || ${JSON.stringify([email])}::jsonb` })
    .where(eq(momoSettings.id, 1));
}

const MOMO_LOCK = 7_270_001;

/**
 * The momo settings are one row. On PostgreSQL every test file shares the database, so a
 * test that replaces the settings (PUT /param/momo-sync) would disturb another file's momo
 * agents or rate mid-test. Tests that rely on or replace the settings run inside this lock
 * (a session advisory lock on its own connection); on PGlite each file has its own database.
 */
export async function withMomoSettings<T>(fn: () => Promise<T>): Promise<T> {
  const url = inject('postgresUrl');
  if (!url) return fn();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MOMO_LOCK]);
    return await fn();
  } finally {
    await client.end();
  }
}
