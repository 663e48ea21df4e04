import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsOf } from '@shared/money';
import type { Database } from '../../server/db/client';
import { cardTransactions, decisionEndpoints, webhookEvents } from '../../server/db/schema';
import { seal } from '../../server/lib/crypto';
import { toApiCardTx } from '../../server/modules/cards/queries';
import { newStaff } from './support/actors';
import { apiCompany, holdDeliveryLock, hookedCompany, startReceiver } from './support/api';
import { type TestApp, startTestApp } from './support/app';
import { cardLedger, expectLedgerConsistent, issuerBalance, newCard, rows } from './support/cards';
import { fundWallet } from './support/money';

/**
 * A plain approval is decided and recorded in one SQL call (cw_card_authorize); everything else takes the long path
 * (authorize.ts, the sandbox's messages). Both paths must leave the same records: two cards alike, one paid through
 * each path (the long one forced by answering the call's "not mine"), and every row compared.
 */
let t: TestApp;
let unlock: () => Promise<void>;
let companyId: string;
/** calls of cw_card_authorize; while `forceLong`, each is answered "not mine" without reaching the database */
const calls = { inOne: 0, forceLong: false };

beforeAll(async () => {
  unlock = await holdDeliveryLock();
  t = await startTestApp();
  const db = t.ctx.database as { query: Database['query'] };
  const query = db.query.bind(db);
  db.query = (async (name: string, text: string, params: unknown[]) => {
    if (name === 'cw_card_authorize') {
      calls.inOne++;
      if (calls.forceLong) return [{ r: null }];
    }
    return query(name, text, params);
  }) as Database['query'];
});
afterAll(async () => {
  if (companyId)
    await t.ctx.db
      .update(webhookEvents)
      .set({ state: 'skipped' })
      .where(and(inArray(webhookEvents.companyId, [companyId]), eq(webhookEvents.state, 'pending')));
  await t.close();
  await unlock();
});

const pay = (caller: { token: string }, cardId: string, amount: string, extra: Record<string, unknown> = {}) =>
  t.api('POST', '/sandbox/authorizations', {
    token: caller.token,
    body: {
      card_id: cardId,
      amount,
      merchant: 'Makola Grocers',
      mcc: '5411',
      country: 'GH',
      currency: 'USD',
      ...extra,
    },
  });

/** Everything an authorisation left, without what differs by nature (ids, times, the decision's duration). */
async function recordsOf(cardId: string) {
  const txs = await rows(
    t,
    sql`select t.*, tr.kind as tr_kind, tr.reference as tr_reference, tr.description as tr_description,
               tr.meta as tr_meta, tr.created_by as tr_created_by,
               (select json_agg(json_build_object('kind', a.kind, 'amount', e.amount, 'before', e.balance_before,
                                                  'after', e.balance_after) order by a.kind)
                  from ledger_entries e join ledger_accounts a on a.id = e.account_id
                 where e.transfer_id = tr.id) as entries,
               sa.amount as sa_amount, sa.status as sa_status, sa.currency as sa_currency, sa.merchant as sa_merchant,
               sa.country as sa_country, sa.mcc as sa_mcc, sa.decline_reason as sa_decline_reason,
               m.kind as m_kind, m.state as m_state, m.available_delta as m_delta, m.payload as m_payload,
               m.authorization_id = sa.id as m_points_at_auth
          from card_transactions t
          left join ledger_transfers tr on tr.id = t.ledger_transfer_id
          left join sandbox_authorizations sa on sa.id::text = t.issuer_reference
          left join sandbox_messages m on m.id::text = t.issuer_reference
         where t.card_id = ${cardId} and t.kind = 'authorization'
         order by t.created_at, t.amount`,
  );
  const events = await rows(
    t,
    sql`select type, state, payload from webhook_events
         where company_id = ${companyId} and payload->'data'->>'card_id' = ${cardId} order by created_at`,
  );
  const [card] = await rows(t, sql`select insufficient_streak from cards where id = ${cardId}`);
  return {
    card,
    txs: txs.map((r) => {
      const { id, card_id, issuer_reference, ledger_transfer_id, created_at, updated_at, decision_ms, ...rest } = r;
      expect(typeof decision_ms, 'the decision is timed').toBe('number');
      expect(issuer_reference, 'the issuer reference is the sandbox authorisation').toBeTruthy();
      const payload = rest.m_payload as { token: string; req: unknown } | null;
      const meta = rest.tr_meta as { card_id: string; card_number: string } | null;
      if (meta) expect(meta.card_id).toBe(cardId);
      if (rest.tr_reference) expect(rest.tr_reference).toBe(`AUTH-${issuer_reference}`);
      return {
        ...rest,
        tr_reference: rest.tr_reference ? 'AUTH-ref' : null,
        tr_meta: meta ? { ...meta, card_id: 'card', card_number: meta.card_number.slice(0, -4) } : null,
        m_payload: payload ? { ...payload, token: payload.token ? 'token' : null } : null,
      };
    }),
    events: events.map((e) => {
      const p = e.payload as { type: string; timestamp: string; data: Record<string, unknown> };
      const { card_id, transaction_id, nickname, last4, ...data } = p.data;
      expect(transaction_id).toBeTruthy();
      expect(Number.isNaN(Date.parse(p.timestamp))).toBe(false);
      return { type: e.type, state: e.state, data };
    }),
  };
}

describe('an authorisation approved in one SQL call', () => {
  it('leaves what the long path leaves: rows, postings, webhooks, the sandbox records; declines take the long path', async () => {
    const staff = await newStaff(t);
    const { admin, receiver } = await hookedCompany(t);
    companyId = admin.companyId!;
    await fundWallet(t, companyId, 100_000);
    try {
      const { card: fast } = await newCard(t, admin, { card_amount: '50.00' });
      const { card: slow } = await newCard(t, admin, { card_amount: '50.00' });
      const start = centsOf(fast.available);
      expect(centsOf(slow.available)).toBe(start);

      /** the same payment on both cards, the second the long way; answers both bodies */
      const both = async (amount: string, extra: Record<string, unknown> = {}) => {
        calls.forceLong = false;
        const before = calls.inOne;
        const a = await pay(staff, fast.id, amount, extra);
        expect(calls.inOne, 'the one-call path was tried').toBe(before + 1);
        calls.forceLong = true;
        const b = await pay(staff, slow.id, amount, extra);
        calls.forceLong = false;
        expect(a.status, JSON.stringify(a.body)).toBe(201);
        expect(b.status, JSON.stringify(b.body)).toBe(201);
        const strip = (d: { transaction: Record<string, unknown> }) => {
          const { id, card_id, date_created, date_updated, decision_ms, ...tx } = d.transaction;
          return { ...d, transaction: tx };
        };
        expect(strip(a.body.data)).toEqual(strip(b.body.data));
        // the answer's transaction is the row as a read of it shows it
        const [row] = await t.ctx.db
          .select()
          .from(cardTransactions)
          .where(eq(cardTransactions.id, a.body.data.transaction.id));
        expect(toApiCardTx(row!)).toEqual(a.body.data.transaction);
        return a.body.data;
      };

      const first = await both('10.00');
      expect(first).toMatchObject({ approved: true, approved_amount: '10.00', decline_code: null });
      expect(first.transaction).toMatchObject({ status: 'approved', held: '10.00', decided_by: 'platform' });
      await both('0.01');
      // more than the card holds, the merchant taking less: a partial approval, described as such
      const partial = await both('100.00', { partial_allowed: true });
      expect(partial.approved_amount).toBe(((start - 1001) / 100).toFixed(2));
      expect(partial.transaction.description).toMatch(/ of USD 100\.00 approved$/);
      // nothing left: declined, through the long path on both cards
      const declined = await both('1.00');
      expect(declined).toMatchObject({ approved: false, decline_code: 'insufficient_funds' });

      // the staff's audit rows: one per payment, alike on both paths (the one-call path writes it with the approval)
      const audit = async (cardId: string) =>
        (
          await rows(
            t,
            sql`select actor_id, actor_email, actor_role, action, object_type, object_id, details, status::int as status, ip
                  from audit_log where object_id = ${cardId} order by created_at`,
          )
        ).map((r) => ({ ...r, object_id: 'card', details: { ...(r.details as object), card_id: 'card' } }));
      const audited = await audit(fast.id);
      expect(audited).toHaveLength(4);
      expect(audited[0]).toMatchObject({ actor_id: staff.id, action: 'sandbox.authorization', status: 201 });
      expect(audited).toEqual(await audit(slow.id));

      const a = await recordsOf(fast.id);
      const b = await recordsOf(slow.id);
      expect(a.txs).toHaveLength(4);
      expect(a.events.map((e) => e.type)).toEqual([
        'card.authorization.approved',
        'card.authorization.approved',
        'card.authorization.approved',
        'card.authorization.declined',
      ]);
      expect(a).toEqual(b);
      expect(await cardLedger(t, fast.id)).toEqual({ available: 0, held: start });
      expect(await issuerBalance(t, fast.id)).toBe(await issuerBalance(t, slow.id));
      expect(await issuerBalance(t, fast.id)).toBe(0);
      await expectLedgerConsistent(t, expect);
    } finally {
      await receiver.close();
    }
  });

  it("a company's API client: its own card approved in one call, another company's card a 404 with nothing written", async () => {
    const mine = await apiCompany(t);
    const theirs = await apiCompany(t);
    await fundWallet(t, mine.admin.companyId!, 10_000);
    await fundWallet(t, theirs.admin.companyId!, 10_000);
    const { card } = await newCard(t, mine.admin, { card_amount: '20.00' });
    const { card: other } = await newCard(t, theirs.admin, { card_amount: '20.00' });
    const before = calls.inOne;
    const own = await pay(mine, card.id, '2.00');
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data).toMatchObject({ approved: true, approved_amount: '2.00' });
    expect(calls.inOne - before, 'approved in one call').toBe(1);
    const refused = await pay(mine, other.id, '2.00');
    expect(refused.status, JSON.stringify(refused.body)).toBe(404);
    expect(await cardLedger(t, other.id)).toEqual({ available: 2000, held: 0 });
    const [n] = await rows(
      t,
      sql`select count(*)::int as n from card_transactions where card_id = ${other.id} and kind = 'authorization'`,
    );
    expect(n!.n).toBe(0);
    await expectLedgerConsistent(t, expect);
  });

  it('with a decision endpoint: the company is asked once, on the transaction id recorded, whether it approves or not', async () => {
    const staff = await newStaff(t);
    const { admin } = await apiCompany(t);
    await fundWallet(t, admin.companyId!, 100_000);
    const decider = await startReceiver(t);
    try {
      await t.ctx.db.insert(decisionEndpoints).values({
        companyId: admin.companyId!,
        url: decider.url,
        timeoutMs: 2000,
        onTimeout: 'decline',
        signingSecret: seal('whsec_aW4tb25lLWNhbGwtdGVzdC1zZWNyZXQ', t.ctx.config.encryptionKey),
      });
      const { card } = await newCard(t, admin, { card_amount: '50.00' });
      const answer = (body: string) =>
        decider.answer((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
      const cases = [
        { reply: '{"approved":true,"amount":"3.00"}', approved: true, amount: '3.00' },
        { reply: '{"approved":false}', approved: false, amount: '0.00' },
      ];
      for (const c of cases) {
        answer(c.reply);
        const before = { asked: decider.received.length, calls: calls.inOne };
        const res = await pay(staff, card.id, '5.00');
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.data).toMatchObject({ approved: c.approved, approved_amount: c.amount });
        expect(res.body.data.transaction.decided_by).toBe('company');
        expect(decider.received.length - before.asked, 'asked once').toBe(1);
        expect(JSON.parse(decider.received.at(-1)!.body).data.transaction_id).toBe(res.body.data.transaction.id);
        // the checks, then the hold after the answer (an approval); a decline goes the long way with the answer
        expect(calls.inOne - before.calls).toBe(c.approved ? 2 : 1);
      }
      expect(await cardLedger(t, card.id)).toMatchObject({ held: 300 });
      await expectLedgerConsistent(t, expect);
    } finally {
      await decider.close();
    }
  });
});
