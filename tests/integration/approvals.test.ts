import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalAction } from '@shared/contract';
import { auditLog, cards, chainDeposits, fees, notifications, topups, users } from '../../server/db/schema';
import { createStaff } from '../../server/seed/admin';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, PASSWORD, logIn, newIndividual, newStaff, randomIp, uniqueEmail } from './support/actors';
import { cardLedger, creationFee, newCard, relogin, walletCents } from './support/cards';
import type { ApiResponse } from './support/http';
import { fundWallet } from './support/money';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { APPROVAL_NOTE, tronTopupReady } from './support/wallet';

/**
 * Maker-checker (issue 33) on a database of its own: policies are global, and other files' staff
 * calls must not be held back by these.
 */
let t: TestApp;
let own: PrivateDatabase | null;
let admin: Actor;
let boss: Actor;
let checker: Actor;
const SLOW = 120_000;

beforeAll(async () => {
  own = await privatePostgres();
  t = await startTestApp({}, { postgresUrl: own?.url, ownPglite: true });
  [admin, boss, checker] = await Promise.all([
    newStaff(t, 'Admin'),
    newStaff(t, 'Super-Admin'),
    newStaff(t, 'Super-Admin'),
  ]);
}, SLOW);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

async function staffAs(role: string): Promise<Actor> {
  const email = uniqueEmail(role.toLowerCase());
  await createStaff(t.ctx.db, { email, password: PASSWORD, role: role as 'Admin', firstName: 'Staff', lastName: role });
  const { session, secret, token } = await logIn(t, email, PASSWORD);
  return { id: session.user.id, email, password: PASSWORD, token, secret, ip: randomIp(), session, companyId: null };
}

const setPolicy = async (action: ApprovalAction, required: boolean, min_amount: string | null = null) => {
  const res = await t.api('PUT', '/approval-policies', { token: boss.token, body: [{ action, required, min_amount }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const approve = (who: Actor, id: string) => t.api('POST', `/approvals/${id}/approve`, { token: who.token });
const reject = (who: Actor, id: string, reason?: string) =>
  t.api('POST', `/approvals/${id}/reject`, { token: who.token, body: reason === undefined ? {} : { reason } });
const approval = async (id: string) => (await t.api('GET', `/approvals/${id}`, { token: checker.token })).body.data;

function expectHeld(res: ApiResponse): string {
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toEqual({ data: { approval_id: expect.any(String), state: 'pending' } });
  return res.body.data.approval_id;
}

async function customerWithCard() {
  const a = await newIndividual(t);
  await fundWallet(t, a.id, 5_000 + creationFee('media', 5_000) + 100_000);
  const { card } = await newCard(t, a, { card_amount: '50.00' });
  return { a, card };
}
const withdraw = (who: Actor, card: string, amount = '10.00', idempotencyKey?: string) =>
  t.api('POST', '/cards/withdraw-funds', { token: who.token, body: { card, amount }, idempotencyKey });

async function unassignedDeposit(amount = 2_500) {
  const id = crypto.randomUUID();
  await t.ctx.db.insert(chainDeposits).values({
    id,
    hash: randomBytes(32).toString('hex'),
    logIndex: 0,
    toAddress: `T${randomBytes(16).toString('hex').slice(0, 33)}`,
    fromAddress: `T${randomBytes(16).toString('hex').slice(0, 33)}`,
    amountMicro: amount * 10_000,
    amount,
    blockNumber: 1,
    blockTime: new Date(),
    status: 'Unassigned',
    reason: 'no-wallet',
  });
  return id;
}
const depositStatus = async (id: string) =>
  (await t.ctx.db.select().from(chainDeposits).where(eq(chainDeposits.id, id)))[0]!.status;

interface Case {
  action: ApprovalAction;
  maker: () => Actor;
  /** the request, what it touches (read before and after), and what the approved request answers */
  prepare(): Promise<{ send(who: Actor): Promise<ApiResponse>; state(): Promise<unknown>; performed: number }>;
}

const CASES: Case[] = [
  {
    action: 'card.fund',
    maker: () => admin,
    async prepare() {
      const { card } = await customerWithCard();
      return {
        send: (who) => t.api('POST', '/cards/add-funds', { token: who.token, body: { card: card.id, amount: '5.00' } }),
        state: () => cardLedger(t, card.id),
        performed: 200,
      };
    },
  },
  {
    action: 'card.withdraw',
    maker: () => admin,
    async prepare() {
      const { card } = await customerWithCard();
      return { send: (who) => withdraw(who, card.id), state: () => cardLedger(t, card.id), performed: 200 };
    },
  },
  {
    action: 'card.delete',
    maker: () => admin,
    async prepare() {
      const { card } = await customerWithCard();
      return {
        send: (who) => t.api('DELETE', `/cards/${card.id}`, { token: who.token }),
        state: async () => (await t.ctx.db.select().from(cards).where(eq(cards.id, card.id)))[0]!.deletedAt,
        performed: 202,
      };
    },
  },
  {
    action: 'topup.approve',
    maker: () => admin,
    async prepare() {
      const a = await newIndividual(t);
      const top = await tronTopupReady(t, a, '40.00');
      return {
        send: (who) =>
          t.api('POST', '/wallet/approve-topup', {
            token: who.token,
            body: { topup_id: top.id, action: 'approve', note: APPROVAL_NOTE },
          }),
        state: async () => [
          (await t.ctx.db.select().from(topups).where(eq(topups.id, top.id)))[0]!.state,
          await walletCents(t, a),
        ],
        performed: 200,
      };
    },
  },
  {
    action: 'deposit.assign',
    maker: () => admin,
    async prepare() {
      const a = await newIndividual(t);
      const id = await unassignedDeposit();
      return {
        send: (who) =>
          t.api('POST', `/wallet/chain-deposits/${id}/assign`, { token: who.token, body: { wallet_id: a.id } }),
        state: async () => [await depositStatus(id), await walletCents(t, a)],
        performed: 200,
      };
    },
  },
  {
    action: 'deposit.return',
    maker: () => admin,
    async prepare() {
      const id = await unassignedDeposit();
      return {
        send: (who) =>
          t.api('POST', `/wallet/chain-deposits/${id}/return`, {
            token: who.token,
            body: { note: 'Sent back by hand' },
          }),
        state: () => depositStatus(id),
        performed: 200,
      };
    },
  },
  {
    action: 'fee.change',
    maker: () => boss,
    async prepare() {
      const [f] = await t.ctx.db.select().from(fees).where(eq(fees.name, 'card-issuance-media'));
      const value = ((f!.value + 1) / 100).toFixed(2);
      return {
        send: (who) => t.api('PUT', `/fees/${f!.id}`, { token: who.token, body: { value, status: 1 } }),
        state: async () => (await t.ctx.db.select().from(fees).where(eq(fees.id, f!.id)))[0]!.value,
        performed: 200,
      };
    },
  },
  {
    action: 'admin.create',
    maker: () => boss,
    async prepare() {
      const email = uniqueEmail('new-admin');
      return {
        send: (who) =>
          t.api('POST', '/account/admins', {
            token: who.token,
            body: { first_name: 'Kofi', last_name: 'Boateng', phone_number: '+233241234567', email, role: 'admin' },
          }),
        state: async () => (await t.ctx.db.select().from(users).where(eq(users.email, email))).length,
        performed: 201,
      };
    },
  },
  {
    action: 'admin.role_change',
    maker: () => boss,
    async prepare() {
      const other = await newStaff(t, 'Admin');
      return {
        send: (who) =>
          t.api('PUT', `/account/admins/${other.id}`, {
            token: who.token,
            body: { first_name: 'Staff', last_name: 'Admin', email: other.email, role: 'super-admin' },
          }),
        state: async () => (await t.ctx.db.select().from(users).where(eq(users.id, other.id)))[0]!.role,
        performed: 200,
      };
    },
  },
  {
    action: 'two_factor.reset',
    maker: () => admin,
    async prepare() {
      const a = await newIndividual(t);
      return {
        send: (who) =>
          t.api('POST', `/account/reset-2fa/${a.id}`, { token: who.token, body: { reason: 'Lost phone' } }),
        state: async () => (await t.ctx.db.select().from(users).where(eq(users.id, a.id)))[0]!.totpSecret,
        performed: 200,
      };
    },
  },
  {
    action: 'customer.deactivate',
    maker: () => admin,
    async prepare() {
      const a = await newIndividual(t);
      return {
        send: (who) => t.api('DELETE', `/individuals/${a.id}`, { token: who.token }),
        state: async () => (await t.ctx.db.select().from(users).where(eq(users.id, a.id)))[0]!.deactivatedAt,
        performed: 202,
      };
    },
  },
];

describe('each action under its policy', () => {
  for (const c of CASES)
    it(
      `${c.action}: 202 pending and nothing done; the maker cannot approve; a second person performs it once`,
      async () => {
        const p = await c.prepare();
        await setPolicy(c.action, true);
        try {
          const before = await p.state();
          const id = expectHeld(await p.send(c.maker()));
          expect(await p.state()).toEqual(before);
          const mine = await approve(c.maker(), id);
          expect(mine.status).toBe(403);
          expect(await p.state()).toEqual(before);

          const listed = await t.api('GET', '/approvals?state=pending&per_page=100', { token: checker.token });
          const row = listed.body.data.find((r: { id: string }) => r.id === id);
          expect(row).toMatchObject({ action: c.action, state: 'pending', initiator: { id: c.maker().id } });
          expect(row.summary.length).toBeGreaterThan(10);

          const res = await approve(checker, id);
          expect(res.status, JSON.stringify(res.body)).toBe(p.performed);
          expect(res.body).toEqual(expect.objectContaining({ data: expect.anything() }));
          const after = await p.state();
          expect(after).not.toEqual(before);
          expect(await approval(id)).toMatchObject({
            state: 'approved',
            decided_by: { id: checker.id },
            result: { status: p.performed },
          });
          // once: a second approval is a conflict and changes nothing
          const again = await approve(checker, id);
          expect(again.status).toBe(409);
          expect(again.body.error).toBe('approved');
          expect(await p.state()).toEqual(after);
        } finally {
          await setPolicy(c.action, false);
        }
      },
      SLOW,
    );
});

describe('POST /approvals/{id}/approve on a card withdrawal', () => {
  beforeAll(() => setPolicy('card.withdraw', true));
  afterAll(() => setPolicy('card.withdraw', false));

  it('customers are never held back; the audit trail names both people', async () => {
    const { a, card } = await customerWithCard();
    expect((await withdraw(a, card.id)).status).toBe(200);
    const id = expectHeld(await withdraw(admin, card.id, '7.00'));
    const checkerBell = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, checker.id));
    expect(checkerBell.some((n) => n.eventKey === `approval:${id}:requested`)).toBe(true);
    expect((await approve(checker, id)).status).toBe(200);
    const makerBell = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, admin.id));
    expect(makerBell.some((n) => n.eventKey === `approval:${id}:decided`)).toBe(true);
    const rows = await t.ctx.db.select().from(auditLog).where(eq(auditLog.objectId, card.id));
    const done = rows.find((r) => r.action === 'card.withdraw' && r.actorId === admin.id);
    expect(done?.details).toMatchObject({ approval_id: id, approved_by: checker.email });
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.objectId, id));
    expect(audit.map((r) => [r.action, r.actorId]).sort()).toEqual(
      [
        ['approval.approve', checker.id],
        ['approval.request', admin.id],
      ].sort(),
    );
  });

  it('refuses a checker whose role lacks the action (403), and a customer (403)', async () => {
    const { a, card } = await customerWithCard();
    const id = expectHeld(await withdraw(admin, card.id));
    for (const role of ['Support', 'Finance', 'Compliance', 'Auditor']) {
      const who = await staffAs(role);
      expect((await approve(who, id)).status, role).toBe(403);
      expect((await reject(who, id, 'no')).status, role).toBe(403);
    }
    expect((await approve(a, id)).status).toBe(403);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
    expect((await approval(id)).state).toBe('pending');
  });

  it(
    'ten approvals at once perform it once; the others get 409',
    async () => {
      const { card } = await customerWithCard();
      const id = expectHeld(await withdraw(admin, card.id));
      const checkers = await Promise.all(Array.from({ length: 5 }, () => newStaff(t, 'Super-Admin')));
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => approve(checkers[i % 5]!, id)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
      expect(await cardLedger(t, card.id)).toEqual({ available: 4_000, held: 0 });
    },
    SLOW,
  );

  it('rejection needs a reason, does nothing, and cannot be approved after', async () => {
    const { card } = await customerWithCard();
    const id = expectHeld(await withdraw(admin, card.id));
    const none = await reject(checker, id);
    expect(none.status).toBe(422);
    expect(none.body.error.reason).toBeDefined();
    expect((await reject(admin, id, 'mine')).status).toBe(403);
    const res = await reject(checker, id, 'The customer did not ask for it');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'rejected', reason: 'The customer did not ask for it' });
    const late = await approve(checker, id);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('rejected');
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
  });

  it('expires after 24 hours: 409 with state expired, nothing done', async () => {
    const { card } = await customerWithCard();
    const id = expectHeld(await withdraw(admin, card.id));
    t.clock.advance(24 * 3600_000 + 1_000);
    for (const who of [admin, boss, checker]) await relogin(t, who);
    const res = await approve(checker, id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('expired');
    expect((await reject(checker, id, 'late')).status).toBe(409);
    expect((await approval(id)).state).toBe('expired');
    const listed = await t.api('GET', '/approvals?state=expired&per_page=100', { token: checker.token });
    expect(listed.body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
  });

  it("fails with the action's own error when the card was deleted meanwhile, and nothing moves", async () => {
    const { a, card } = await customerWithCard();
    const id = expectHeld(await withdraw(admin, card.id));
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: a.token })).status).toBe(202);
    const wallet = await walletCents(t, a);
    const res = await approve(checker, id);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/deleted/i);
    expect(await approval(id)).toMatchObject({ state: 'failed', result: { status: 409 } });
    expect(await walletCents(t, a)).toBe(wallet);
  });

  it('a process dying right after the claim: approving again performs it once', async () => {
    const { card } = await customerWithCard();
    const id = expectHeld(await withdraw(admin, card.id));
    const saved = t.ctx.config.failpoints;
    t.ctx.config.failpoints = { 'approval.after-claim': { action: { kind: 'error' }, hit: 1 } };
    expect((await approve(checker, id)).status).toBe(500);
    t.ctx.config.failpoints = saved;
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
    t.clock.advance(61_000);
    expect((await approve(checker, id)).status).toBe(200);
    expect((await approve(boss, id)).status).toBe(409);
    expect(await cardLedger(t, card.id)).toEqual({ available: 4_000, held: 0 });
  });

  it('the 202 is the idempotent answer: a retry with the same key is the same approval', async () => {
    const { card } = await customerWithCard();
    const key = crypto.randomUUID();
    const first = expectHeld(await withdraw(admin, card.id, '10.00', key));
    expect(expectHeld(await withdraw(admin, card.id, '10.00', key))).toBe(first);
  });

  it('bad input is still a 422 and an unknown card a 404, not an approval', async () => {
    const { card } = await customerWithCard();
    expect((await withdraw(admin, card.id, '-1')).status).toBe(422);
    expect((await withdraw(admin, crypto.randomUUID())).status).toBe(404);
  });
});

describe('a process dying after the action committed, before the approval recorded it', () => {
  it(
    'approving again answers the first answer: the top-up is credited once',
    async () => {
      await setPolicy('topup.approve', true);
      try {
        const a = await newIndividual(t);
        const top = await tronTopupReady(t, a, '40.00');
        const id = expectHeld(
          await t.api('POST', '/wallet/approve-topup', {
            token: admin.token,
            body: { topup_id: top.id, action: 'approve', note: APPROVAL_NOTE },
          }),
        );
        const saved = t.ctx.config.failpoints;
        t.ctx.config.failpoints = { 'money.after-commit': { action: { kind: 'error' }, hit: 1 } };
        const died = await approve(checker, id);
        t.ctx.config.failpoints = saved;
        expect(died.status).toBe(500);
        const credited = await walletCents(t, a);
        expect(credited).toBeGreaterThan(0);
        expect((await approval(id)).result).toBeNull();
        // too soon: the first performer may still be at work
        expect((await approve(boss, id)).status).toBe(409);
        t.clock.advance(61_000);
        const resumed = await approve(boss, id);
        expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
        expect(resumed.body.data.state).toBe('Approved');
        expect(await walletCents(t, a)).toBe(credited);
        expect(await approval(id)).toMatchObject({ state: 'approved', decided_by: { id: checker.id } });
      } finally {
        await setPolicy('topup.approve', false);
      }
    },
    SLOW,
  );
});

describe('min_amount', () => {
  it('holds back from the amount on, not below', async () => {
    await setPolicy('card.withdraw', true, '20.00');
    try {
      const { card } = await customerWithCard();
      expect((await withdraw(admin, card.id, '19.99')).status).toBe(200);
      expectHeld(await withdraw(admin, card.id, '20.00'));
    } finally {
      await setPolicy('card.withdraw', false);
    }
  });
});

describe('Support asks for a 2FA reset', () => {
  it('always waits for approval, even with the policy off', async () => {
    const support = await staffAs('Support');
    const a = await newIndividual(t);
    const res = await t.api('POST', `/account/reset-2fa/${a.id}`, {
      token: support.token,
      body: { reason: 'Lost phone' },
    });
    const id = expectHeld(res);
    expect((await approve(checker, id)).status).toBe(200);
    const [after] = await t.ctx.db.select({ totp: users.totpSecret }).from(users).where(eq(users.id, a.id));
    expect(after!.totp).toBeNull();
  });
});

describe('GET/PUT /approval-policies', () => {
  it('defaults every action to off, and answers every action', async () => {
    const res = await t.api('GET', '/approval-policies', { token: boss.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(11);
  });

  it('is for the Super-Admin: an Admin gets 403 on both, a customer 403', async () => {
    expect((await t.api('GET', '/approval-policies', { token: admin.token })).status).toBe(403);
    const put = await t.api('PUT', '/approval-policies', {
      token: admin.token,
      body: [{ action: 'card.fund', required: true, min_amount: null }],
    });
    expect(put.status).toBe(403);
    const customer = await newIndividual(t);
    expect((await t.api('GET', '/approval-policies', { token: customer.token })).status).toBe(403);
  });

  it('validates every field (422) and saves nothing then', async () => {
    const bad: unknown[] = [
      [{ action: 'card.steal', required: true, min_amount: null }],
      [{ action: 'card.fund', required: 'yes', min_amount: null }],
      [{ action: 'card.fund', required: true, min_amount: '-1.00' }],
      [{ action: 'card.fund', required: true, min_amount: '1.234' }],
      [{ action: 'card.fund', required: true, min_amount: 'ten' }],
      [{ action: 'fee.change', required: true, min_amount: '5.00' }],
      [
        { action: 'card.fund', required: true },
        { action: 'card.fund', required: false },
      ],
      [],
      { action: 'card.fund', required: true },
    ];
    for (const body of bad) {
      const res = await t.api('PUT', '/approval-policies', { token: boss.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const now = await t.api('GET', '/approval-policies', { token: boss.token });
    expect(now.body.data.find((p: { action: string }) => p.action === 'card.fund')).toEqual({
      action: 'card.fund',
      required: false,
      min_amount: null,
    });
  });

  it('saves and answers amounts as money', async () => {
    const res = await t.api('PUT', '/approval-policies', {
      token: boss.token,
      body: [{ action: 'topup.approve', required: true, min_amount: 1000 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.find((p: { action: string }) => p.action === 'topup.approve')).toEqual({
      action: 'topup.approve',
      required: true,
      min_amount: '1000.00',
    });
    await setPolicy('topup.approve', false);
  });
});
