import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { cardLedger, charge, issuerBalance, newCard, rows } from './support/cards';
import { backdateAuthorization } from './support/card-figures';
import { PDF_MINI, PNG_1PX, form } from './support/files';
import { fundWallet } from './support/money';
import { performDue } from '../../server/modules/cards/outbox';
import { parseCsv } from '../support/csv';
import { hookedCompany } from './support/api';

let t: TestApp;
let staff: Actor;
let boss: Actor;
beforeAll(async () => {
  t = await startTestApp();
  staff = await newStaff(t);
  boss = await newStaff(t, 'Super-Admin');
});
afterAll(() => t.close());

/** Turns the program's provisional credit on or off (the other program controls as they are). */
async function provisional(on: boolean) {
  const now = (await t.api('GET', '/program/controls', { token: boss.token })).body.data;
  const res = await t.api('PUT', '/program/controls', {
    token: boss.token,
    body: {
      blocked_categories: now.blocked_categories,
      blocked_countries: now.blocked_countries,
      provisional_credit: on,
    },
  });
  expect(res.status).toBe(200);
  expect(res.body.data.provisional_credit).toBe(on);
}

/** A customer with a premium card of 100.00 and a payment of 40.00 at Jumia Ghana, cleared. */
async function paid(owner?: Actor) {
  const a = owner ?? (await newIndividual(t));
  await fundWallet(t, a.companyId ?? a.id, 1_000_000);
  const { card } = await newCard(t, a, { purpose: 'general', card_amount: '100.00' });
  const auth = (await charge(t, staff, card.id, '40.00')).body.data.transaction;
  const settled = await t.api('POST', `/sandbox/authorizations/${auth.id}/settle`, { token: staff.token });
  expect(settled.status).toBe(200);
  return { a, card, payment: auth.id as string };
}

const dispute = (who: Actor, txId: string, body: Record<string, unknown>) =>
  t.api('POST', `/card-transactions/${txId}/disputes`, { token: who.token, body });
const good = { reason: 'not_received', amount: '25.00', explanation: 'The parcel never came.' };
const submit = (id: string, who = staff) => t.api('POST', `/disputes/${id}/submit`, { token: who.token, body: {} });
const resolve = (id: string, outcome: string, who = staff) =>
  t.api('POST', `/sandbox/disputes/${id}/resolve`, { token: who.token, body: { outcome } });
const withdraw = (id: string, who: Actor) => t.api('POST', `/disputes/${id}/withdraw`, { token: who.token, body: {} });

const multipart = (p: string, token: string, body: FormData) =>
  fetch(`${t.url}/api/v1${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
  );

/**
 * The test's own webhook events, left undelivered, are set aside: on PostgreSQL the test files share one database,
 * and another file's delivery worker would take them (oldest first) before its own.
 */
const settleHooks = (companyId: string) =>
  t.ctx.db.execute(
    sql`update webhook_events set state = 'skipped' where company_id = ${companyId} and state = 'pending'`,
  );

/** The card's available balance agrees with the issuer's, and the postings of the dispute. */
async function expectCard(cardId: string, available: number) {
  expect((await cardLedger(t, cardId)).available).toBe(available);
  expect(await issuerBalance(t, cardId)).toBe(available);
}

const disputePostings = (disputeId: string) =>
  rows(
    t,
    sql`select tr.kind, e.amount, a.kind as account, a.owner_id from ledger_transfers tr
          join ledger_entries e on e.transfer_id = tr.id join ledger_accounts a on a.id = e.account_id
         where tr.meta->>'dispute_id' = ${disputeId} order by tr.created_at, e.amount`,
  );

describe('the paths of a dispute', () => {
  it('won without provisional credit: the card is credited once, from the issuer, when the issuer decides', async () => {
    await provisional(false);
    const { a, card, payment } = await paid();
    await expectCard(card.id, 6_000);
    const opened = await dispute(a, payment, good);
    expect(opened.status).toBe(201);
    const d = opened.body.data;
    expect(d).toMatchObject({
      state: 'submitted',
      reason: 'not_received',
      amount: '25.00',
      payment_amount: '40.00',
      merchant: 'Jumia Ghana',
      credited: '0.00',
      card_id: card.id,
      transaction_id: payment,
    });
    expect(d.history).toHaveLength(1);
    const mine = await t.api('GET', '/disputes', { token: a.token });
    expect(mine.body.data.map((x: any) => x.id)).toEqual([d.id]);

    const sent = await submit(d.id);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ state: 'under_review', provisional_credit: '0.00' });
    expect(sent.body.data.issuer_reference).toMatch(/^sbx_dp_/);
    await expectCard(card.id, 6_000);

    const won = await resolve(d.id, 'won');
    expect(won.status).toBe(200);
    expect(won.body.data).toMatchObject({ state: 'won', credited: '25.00' });
    expect(won.body.data.history.map((h: any) => h.state)).toEqual(['submitted', 'under_review', 'won']);
    expect(won.body.data.history[2].actor).toBe('Card issuer');
    await expectCard(card.id, 8_500);
    const postings = await disputePostings(d.id);
    expect(postings.map((p) => [p.kind, Number(p.amount), p.account, p.owner_id])).toEqual([
      ['dispute', -2500, 'card_issuer', null],
      ['dispute', 2500, 'card', card.id],
    ]);
    // decided once: the issuer cannot decide again
    expect((await resolve(d.id, 'lost')).status).toBe(409);
    await expectCard(card.id, 8_500);
    // the customer sees the outcome and the staff member only as the support team
    const seen = await t.api('GET', `/disputes/${d.id}`, { token: a.token });
    expect(seen.body.data.history[1].actor).toBe('Support team');
    const bell = await t.api('GET', '/notifications', { token: a.token });
    expect(bell.body.data.map((n: any) => n.type)).toContain('card_dispute_updated');
    // the card's history shows the credit
    const hist = await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: a.token });
    expect(hist.body.data.find((r: any) => r.kind === 'dispute_credit')).toMatchObject({ amount: '25.00' });
    // what won is no longer disputable: 40 cleared, 25 credited
    expect((await dispute(a, payment, { ...good, amount: '15.01' })).status).toBe(422);
    expect((await dispute(a, payment, { ...good, amount: '15.00' })).status).toBe(201);
  });

  it('lost without provisional credit: nothing moves', async () => {
    await provisional(false);
    const { a, card, payment } = await paid();
    const d = (await dispute(a, payment, { ...good, reason: 'duplicate' })).body.data;
    await submit(d.id);
    const lost = await resolve(d.id, 'lost');
    expect(lost.body.data).toMatchObject({ state: 'lost', credited: '0.00' });
    await expectCard(card.id, 6_000);
    expect(await disputePostings(d.id)).toEqual([]);
    // a lost dispute is closed: another may be opened
    expect((await dispute(a, payment, good)).status).toBe(201);
  });

  it('withdrawn: while submitted nothing moves; it cannot be sent or withdrawn again', async () => {
    await provisional(false);
    const { a, card, payment } = await paid();
    const d = (await dispute(a, payment, good)).body.data;
    const w = await withdraw(d.id, a);
    expect(w.status).toBe(200);
    expect(w.body.data.state).toBe('withdrawn');
    expect((await withdraw(d.id, a)).status).toBe(409);
    expect((await submit(d.id)).status).toBe(409);
    expect((await resolve(d.id, 'won')).status).toBe(409);
    await expectCard(card.id, 6_000);
    const audit = await rows(
      t,
      sql`select action, actor_id from audit_log where object_id = ${d.id} order by created_at`,
    );
    expect(audit.map((r) => r.action)).toEqual(['dispute.create', 'dispute.withdraw']);
  });

  it("each change posts its card.dispute.* webhook to the company's endpoint and is audited", async () => {
    await provisional(false);
    const { admin, receiver } = await hookedCompany(t);
    try {
      const first = await paid(admin);
      const won = (await dispute(admin, first.payment, good)).body.data;
      expect((await submit(won.id)).status).toBe(200);
      expect((await resolve(won.id, 'won')).status).toBe(200);
      const second = await paid(admin);
      const lost = (await dispute(admin, second.payment, good)).body.data;
      expect((await submit(lost.id)).status).toBe(200);
      expect((await resolve(lost.id, 'lost')).status).toBe(200);
      const third = await paid(admin);
      const gone = (await dispute(admin, third.payment, good)).body.data;
      expect((await withdraw(gone.id, admin)).status).toBe(200);

      const events = await rows(
        t,
        sql`select type, payload->'data'->>'dispute_id' as dispute from webhook_events
             where company_id = ${admin.companyId} and type like 'card.dispute.%' order by created_at, type`,
      );
      const of = (id: string) => events.filter((e) => e.dispute === id).map((e) => e.type);
      expect(of(won.id)).toEqual(['card.dispute.created', 'card.dispute.submitted', 'card.dispute.won']);
      expect(of(lost.id)).toEqual(['card.dispute.created', 'card.dispute.submitted', 'card.dispute.lost']);
      expect(of(gone.id)).toEqual(['card.dispute.created', 'card.dispute.withdrawn']);

      const audited = async (id: string) =>
        (await rows(t, sql`select action from audit_log where object_id = ${id} order by created_at, action`)).map(
          (r) => r.action,
        );
      expect(await audited(won.id)).toEqual(['dispute.create', 'dispute.submit', 'sandbox.dispute_won']);
      expect(await audited(lost.id)).toEqual(['dispute.create', 'dispute.submit', 'sandbox.dispute_lost']);
      expect(await audited(gone.id)).toEqual(['dispute.create', 'dispute.withdraw']);
    } finally {
      await settleHooks(admin.companyId!);
      await receiver.close();
    }
  });

  it('refused by the issuer for good: back to submitted, the provisional credit taken back, the owner told', async () => {
    await provisional(true);
    const { admin, receiver } = await hookedCompany(t);
    const faults = t.ctx.config.issuerFaults as Record<string, string>;
    try {
      const { card, payment } = await paid(admin);
      const d = (await dispute(admin, payment, good)).body.data;
      faults.dispute = 'fail';
      expect((await submit(d.id)).status).toBe(200);
      // The outbox retries (2 s … 30 min apart) until it gives up; each step seen by every session of the file, so
      // none of them idles out on the moved clock.
      const stateOf = async () => (await t.api('GET', `/disputes/${d.id}`, { token: admin.token })).body.data.state;
      for (let i = 0; i < 12 && (await stateOf()) !== 'submitted'; i++) {
        t.clock.advance(5 * 60_000);
        for (const who of [staff, boss]) await t.api('GET', '/notifications', { token: who.token });
        await performDue(t.ctx);
      }
      const back = (await t.api('GET', `/disputes/${d.id}`, { token: admin.token })).body.data;
      expect(back).toMatchObject({ state: 'submitted', credited: '0.00', provisional_credit: '0.00' });
      expect(back.history.at(-1).note).toMatch(/^The card issuer refused it: /);
      await expectCard(card.id, 6_000);
      const bell = await t.api('GET', '/notifications', { token: admin.token });
      expect(bell.body.data[0]).toMatchObject({
        type: 'card_dispute_updated',
        title: 'Your dispute of a payment at Jumia Ghana is back with us',
      });
      expect(bell.body.data[0].body).toContain('The provisional credit of USD 25.00 was taken back');
      const events = await rows(
        t,
        sql`select type from webhook_events where payload->'data'->>'dispute_id' = ${d.id} order by created_at`,
      );
      expect(events.map((e) => e.type)).toEqual([
        'card.dispute.created',
        'card.dispute.submitted',
        'card.dispute.updated',
      ]);
      // The failed operation is in the staff's reconciliation list, named for what it was.
      const ops = await t.api('GET', '/reconciliation/operations?state=failed&per_page=100', { token: boss.token });
      expect(ops.status).toBe(200);
      expect(ops.body.data.filter((o: { card_id: string }) => o.card_id === card.id)).toMatchObject([
        { operation: 'dispute', purpose: 'dispute', state: 'failed' },
      ]);
      // Staff may send it again once the issuer takes it.
      delete faults.dispute;
      expect((await submit(d.id)).status).toBe(200);
      await expectCard(card.id, 8_500);
    } finally {
      delete faults.dispute;
      await settleHooks(admin.companyId!);
      await receiver.close();
    }
  });

  it('a card with an open dispute cannot be deleted until the dispute is decided; then its credit goes back with the card', async () => {
    await provisional(false);
    const { a, card, payment } = await paid();
    const d = (await dispute(a, payment, good)).body.data;
    const refused = await t.api('DELETE', `/cards/${card.id}`, { token: a.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'A payment of this card is disputed. Try again once the dispute is decided or withdrawn.',
    );
    expect((await submit(d.id)).status).toBe(200);
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: staff.token })).status).toBe(409);
    expect((await resolve(d.id, 'won')).status).toBe(200);
    await expectCard(card.id, 8_500);
    const deleted = await t.api('DELETE', `/cards/${card.id}`, { token: a.token });
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.returned).toBe('85.00');
  });

  it('provisional credit: credited when sent, kept when won, taken back when lost or withdrawn', async () => {
    await provisional(true);
    try {
      const { a, card, payment } = await paid();
      const d = (await dispute(a, payment, { ...good, amount: '30.00' })).body.data;
      const sent = await submit(d.id);
      expect(sent.body.data).toMatchObject({ state: 'under_review', provisional_credit: '30.00', credited: '30.00' });
      await expectCard(card.id, 9_000);
      const won = await resolve(d.id, 'won');
      expect(won.body.data).toMatchObject({ state: 'won', credited: '30.00' });
      await expectCard(card.id, 9_000);
      expect((await disputePostings(d.id)).length).toBe(2);

      const second = await paid(a);
      const l = (await dispute(a, second.payment, good)).body.data;
      await submit(l.id);
      await expectCard(second.card.id, 8_500);
      const lost = await resolve(l.id, 'lost');
      expect(lost.body.data).toMatchObject({ state: 'lost', credited: '0.00', provisional_credit: '25.00' });
      await expectCard(second.card.id, 6_000);
      expect((await disputePostings(l.id)).map((p) => Number(p.amount))).toEqual([-2500, 2500, -2500, 2500]);

      const third = await paid(a);
      const w = (await dispute(a, third.payment, good)).body.data;
      await submit(w.id);
      await expectCard(third.card.id, 8_500);
      const gone = await withdraw(w.id, a);
      expect(gone.body.data).toMatchObject({ state: 'withdrawn', credited: '0.00' });
      await expectCard(third.card.id, 6_000);
      // the issuer was told: it cannot decide a withdrawn dispute
      expect((await resolve(w.id, 'won')).status).toBe(409);
    } finally {
      await provisional(false);
    }
  });

  it('a take-back of a provisional credit already spent leaves the card in debt', async () => {
    await provisional(true);
    try {
      const { a, card, payment } = await paid();
      const d = (await dispute(a, payment, { ...good, amount: '40.00' })).body.data;
      await submit(d.id);
      await expectCard(card.id, 10_000);
      const spend = (await charge(t, staff, card.id, '100.00')).body.data.transaction;
      await t.api('POST', `/sandbox/authorizations/${spend.id}/settle`, { token: staff.token });
      await expectCard(card.id, 0);
      await resolve(d.id, 'lost');
      await expectCard(card.id, -4_000);
      const staffView = (await t.api('GET', `/cards/${card.id}`, { token: staff.token })).body.data.additional_data;
      expect(staffView.debt).toBe('40.00');
      const bell = await t.api('GET', '/notifications', { token: a.token });
      expect(bell.body.data.map((n: any) => n.type)).toContain('card_in_debt');
    } finally {
      await provisional(false);
    }
  });
});

describe('what may be disputed, and by whom', () => {
  it('refuses an amount over what cleared less refunds', async () => {
    const { a, payment, card } = await paid();
    const over = await dispute(a, payment, { ...good, amount: '40.01' });
    expect(over.status).toBe(422);
    expect(over.body.error.amount[0]).toMatch(/At most USD 40\.00/);
    const refund = await t.api('POST', '/sandbox/refunds', {
      token: staff.token,
      body: {
        card_id: card.id,
        amount: '10.00',
        merchant: 'Jumia Ghana',
        mcc: '5999',
        country: 'GH',
        transaction_id: payment,
      },
    });
    expect(refund.status).toBe(201);
    expect((await dispute(a, payment, { ...good, amount: '30.01' })).status).toBe(422);
    expect((await dispute(a, payment, { ...good, amount: '30.00' })).status).toBe(201);
  });

  it('refuses a second open dispute of one payment, also when asked at once', async () => {
    const { a, payment } = await paid();
    const both = await Promise.all([dispute(a, payment, good), dispute(a, payment, good)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const again = await dispute(a, payment, good);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This payment already has an open dispute.');
  });

  it('refuses a payment over 120 days old, and one not cleared', async () => {
    const { a, card, payment } = await paid();
    await backdateAuthorization(t, payment, 121);
    const old = await dispute(a, payment, good);
    expect(old.status).toBe(409);
    expect(old.body.message).toMatch(/within 120 days/);
    const pending = (await charge(t, staff, card.id, '5.00')).body.data.transaction;
    expect((await dispute(a, pending.id, { ...good, amount: '5.00' })).status).toBe(409);
  });

  it("a stranger's transaction is not found; a company's user may not dispute; staff open none", async () => {
    const { a, payment } = await paid();
    const stranger = await newIndividual(t);
    const res = await dispute(stranger, payment, good);
    expect(res.status).toBe(404);
    expect((await dispute(a, '00000000-0000-4000-8000-000000000000', good)).status).toBe(404);
    expect((await dispute(staff, payment, good)).status).toBe(403);

    const admin = await newCompany(t);
    const co = await paid(admin);
    const member = await newCompanyMember(t, admin, 'user');
    expect((await dispute(member, co.payment, good)).status).toBe(403);
    const d = (await dispute(admin, co.payment, good)).body.data;
    expect(d.owner_name).toBe('Volta Trading Ltd');
    expect((await t.api('GET', `/disputes/${d.id}`, { token: member.token })).status).toBe(200);
    expect((await withdraw(d.id, member)).status).toBe(403);
    expect((await t.api('GET', `/disputes/${d.id}`, { token: stranger.token })).status).toBe(404);
    expect((await withdraw(d.id, stranger)).status).toBe(404);
    expect((await t.api('GET', '/disputes', { token: stranger.token })).body.data).toEqual([]);
    // a customer may not send it to the issuer nor decide it
    expect((await submit(d.id, admin)).status).toBe(403);
    expect((await resolve(d.id, 'won', admin)).status).toBe(403);
    // Support reads disputes but does not send them
    const support = await newStaff(t, 'Support');
    expect((await t.api('GET', `/disputes/${d.id}`, { token: support.token })).status).toBe(200);
    expect((await submit(d.id, support)).status).toBe(403);
  });

  it('refuses bad input on every field with its own message', async () => {
    const { a, payment } = await paid();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, reason: undefined }, 'reason'],
      [{ ...good, reason: 'angry' }, 'reason'],
      [{ ...good, amount: undefined }, 'amount'],
      [{ ...good, amount: '0' }, 'amount'],
      [{ ...good, amount: '-5' }, 'amount'],
      [{ ...good, amount: '1.001' }, 'amount'],
      [{ ...good, amount: 'ten' }, 'amount'],
      [{ ...good, explanation: undefined }, 'explanation'],
      [{ ...good, explanation: '   ' }, 'explanation'],
      [{ ...good, explanation: 'x'.repeat(2001) }, 'explanation'],
    ];
    for (const [body, field] of cases) {
      const res = await dispute(a, payment, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(res.body.error)).toEqual([field]);
    }
    expect((await dispute(a, 'not-a-uuid', good)).status).toBe(404);
    const text = await multipart(
      `/card-transactions/${payment}/disputes`,
      a.token,
      form(good, { evidence: { data: Buffer.from('just text'), name: 'note.txt', type: 'text/plain' } }),
    );
    expect(text.status).toBe(422);
    expect(text.body.error.evidence[0]).toBe('Upload a JPEG, PNG or PDF file');
    const sixFiles = new FormData();
    for (const [k, v] of Object.entries(good)) sixFiles.append(k, v);
    for (let i = 0; i < 6; i++) sixFiles.append('evidence', new Blob([new Uint8Array(PNG_1PX)]), `r${i}.png`);
    expect(
      (await multipart(`/card-transactions/${payment}/disputes`, a.token, sixFiles)).status,
    ).toBeGreaterThanOrEqual(413);
    expect((await t.api('GET', '/disputes?state=lost_it', { token: staff.token })).body.error.state).toBeDefined();
    expect((await t.api('GET', '/disputes?reason=x', { token: staff.token })).status).toBe(422);
    expect((await t.api('GET', '/disputes?customer=abc', { token: staff.token })).status).toBe(422);
    expect((await t.api('GET', '/disputes?start_date=2026-13-01', { token: staff.token })).status).toBe(422);
    const d = (await dispute(a, payment, good)).body.data;
    const bad = await resolve(d.id, 'maybe');
    expect(bad.status).toBe(422);
    expect(bad.body.error.outcome).toBeDefined();
    const note = await t.api('POST', `/disputes/${d.id}/submit`, {
      token: staff.token,
      body: { note: 'n'.repeat(501) },
    });
    expect(note.status).toBe(422);
    expect(note.body.error.note).toBeDefined();
    // sent, not yet decided by the issuer: the sandbox decides only what it has
    expect((await resolve(d.id, 'won')).status).toBe(409);
  });

  it('keeps evidence files with the dispute, for the owner and staff only', async () => {
    const { a, payment } = await paid();
    const fd = new FormData();
    for (const [k, v] of Object.entries(good)) fd.append(k, v);
    fd.append('evidence', new Blob([new Uint8Array(PDF_MINI)]), 'receipt.pdf');
    fd.append('evidence', new Blob([new Uint8Array(PNG_1PX)]), 'photo.png');
    const res = await multipart(`/card-transactions/${payment}/disputes`, a.token, fd);
    expect(res.status).toBe(201);
    const files = res.body.data.evidence;
    expect(files.map((f: any) => [f.name, f.content_type])).toEqual([
      ['receipt.pdf', 'application/pdf'],
      ['photo.png', 'image/png'],
    ]);
    const mine = await fetch(`${t.url}/api/v1/files/${files[0].id}`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(mine.status).toBe(200);
    const stranger = await newIndividual(t);
    const theirs = await fetch(`${t.url}/api/v1/files/${files[0].id}`, {
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(theirs.status).toBe(404);
  });
});

describe('the staff list', () => {
  it('filters by state, reason, customer and dates, pages, and exports CSV', async () => {
    const one = await paid();
    const two = await paid();
    const d1 = (await dispute(one.a, one.payment, { ...good, reason: 'fraudulent' })).body.data;
    const d2 = (await dispute(two.a, two.payment, { ...good, reason: 'canceled' })).body.data;
    await submit(d2.id);
    const q = (s: string) => t.api('GET', `/disputes?${s}`, { token: staff.token });
    expect((await q(`customer=${one.a.id}`)).body.data.map((d: any) => d.id)).toEqual([d1.id]);
    const fraud = (await q(`customer=${one.a.id}&reason=fraudulent&state=submitted`)).body;
    expect(fraud.total).toBe(1);
    expect((await q(`customer=${two.a.id}&state=submitted`)).body.total).toBe(0);
    expect((await q(`customer=${two.a.id}&state=under_review`)).body.data[0].id).toBe(d2.id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await q(`customer=${one.a.id}&start_date=${today}&end_date=${today}`)).body.total).toBe(1);
    expect((await q(`customer=${one.a.id}&end_date=2020-01-01`)).body.total).toBe(0);
    const page = (await q('per_page=1')).body;
    expect(page).toMatchObject({ per_page: 1, current_page: 1 });
    expect(page.total).toBeGreaterThanOrEqual(2);
    const csv = await fetch(`${t.url}/api/v1/disputes?format=csv&customer=${two.a.id}`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const table = parseCsv(await csv.text());
    expect(table[0]).toContain('Reason');
    expect(table.length).toBe(2);
    expect(table[1]).toContain('Canceled');
    expect(table[1]).toContain('Under review');
  });
});
