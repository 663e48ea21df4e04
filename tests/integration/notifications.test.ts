import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NOTIFICATION_TYPES } from '@shared/contract';
import { notifications } from '../../server/db/schema';
import { JOBS, jobByName } from '../../server/jobs';
import { MAIL_RETRY_MS, sendClaimed, sendDueMail } from '../../server/modules/notifications/mail';
import { mailSoon, notify } from '../../server/modules/notifications/service';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, mailsTo, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { apiCompany } from './support/api';

/**
 * The notification centre's endpoints: each person reads and marks only their own; settings per
 * type with defaults and locked security mails; the mail outbox sends each mail once, with retries.
 * Mail is sent here only for this file's people (sendDueMail's userIds), as other files share the
 * database on PostgreSQL.
 */
let t: TestApp;
let a: Actor;
let b: Actor;
let staff: Actor;
beforeAll(async () => {
  t = await startTestApp();
  a = await newIndividual(t, { first_name: 'Esi' });
  b = await newIndividual(t);
  staff = await newStaff(t);
});
afterAll(() => t.close());

let seq = 0;
async function give(who: Actor, n = 1, type: keyof typeof NOTIFICATION_TYPES = 'transfer_received') {
  const at = t.clock.now();
  for (let i = 0; i < n; i++) {
    const k = `test:${seq++}`;
    await notify(
      t.ctx.db,
      [who.id],
      { type, title: `Note ${k}`, body: 'Line one\nLine two', link: '/portal/wallet-transfers', eventKey: k },
      // a millisecond apart, the last at now: a mail dated after now is not yet due, and a fast run would miss it
      new Date(at.getTime() - (n - 1) + i),
    );
  }
}
/** The notification mails to this person (registration sent them a verification mail too). */
const noteMails = (who: Actor) => mailsTo(t, who.email).filter((m) => m.subject.startsWith('Note '));
const list = (who: Actor, q = '') => t.api('GET', `/notifications${q}`, { token: who.token });

describe('GET /notifications', () => {
  it('is the caller’s own, newest first, paged, with the unread count', async () => {
    await give(a, 3);
    await give(b, 1);
    const res = await list(a, '?per_page=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, per_page: 2, current_page: 1, last_page: 2, unread: 3 });
    expect(res.body.data).toHaveLength(2);
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      'body',
      'created_at',
      'id',
      'link',
      'read_at',
      'title',
      'type',
    ]);
    const times = res.body.data.map((n: { created_at: string }) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await list(a, '?per_page=2&page=2');
    expect(second.body.data).toHaveLength(1);
    expect((await list(b)).body.total).toBe(1);
  });

  it('401 without a session; 403 for an API token (it is for people)', async () => {
    expect((await t.api('GET', '/notifications')).status).toBe(401);
    const { token } = await apiCompany(t);
    expect((await t.api('GET', '/notifications', { token })).status).toBe(403);
    expect((await t.api('POST', '/notifications/read', { token, body: {} })).status).toBe(403);
    expect((await t.api('GET', '/account/notification-settings', { token })).status).toBe(403);
  });

  it('bad paging is 422 per parameter', async () => {
    for (const [q, field] of [
      ['?page=0', 'page'],
      ['?per_page=101', 'per_page'],
      ['?per_page=x', 'per_page'],
      ['?unread=maybe', 'unread'],
    ] as const) {
      const res = await list(a, q);
      expect(res.status, q).toBe(422);
      expect(res.body.error[field], q).toBeDefined();
    }
  });
});

describe('POST /notifications/read', () => {
  it('marks the given ids read; ids of someone else’s are ignored (they stay unread for their owner)', async () => {
    const c = await newIndividual(t);
    const d = await newIndividual(t);
    await give(c, 2);
    await give(d, 1);
    const mine = (await list(c)).body.data.map((n: { id: string }) => n.id);
    const theirs = (await list(d)).body.data[0].id;
    const res = await t.api('POST', '/notifications/read', { token: c.token, body: { ids: [mine[0], theirs] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ marked: 1, unread: 1 });
    expect((await list(d)).body).toMatchObject({ unread: 1 });
    expect((await list(d)).body.data[0].read_at).toBeNull();
    expect((await list(c, '?unread=true')).body.data.map((n: { id: string }) => n.id)).toEqual([mine[1]]);
    // again: nothing more to mark
    expect(
      (await t.api('POST', '/notifications/read', { token: c.token, body: { ids: [mine[0]] } })).body.data,
    ).toEqual({ marked: 0, unread: 1 });
  });

  it('marks all of the caller’s when ids is left out, and nobody else’s', async () => {
    const c = await newIndividual(t);
    const d = await newIndividual(t);
    await give(c, 3);
    await give(d, 2);
    const res = await t.api('POST', '/notifications/read', { token: c.token });
    expect(res.body.data).toEqual({ marked: 3, unread: 0 });
    expect((await list(c)).body.data.every((n: { read_at: string | null }) => n.read_at)).toBe(true);
    expect((await list(d)).body.unread).toBe(2);
  });

  it('bad ids are 422 under ids', async () => {
    for (const ids of [[], ['not-a-uuid'], 'x', Array.from({ length: 101 }, () => crypto.randomUUID())]) {
      const res = await t.api('POST', '/notifications/read', { token: a.token, body: { ids } });
      expect(res.status, JSON.stringify(ids).slice(0, 40)).toBe(422);
      expect(Object.keys(res.body.error)[0]).toMatch(/^ids/);
    }
  });
});

describe('notification settings', () => {
  it('defaults: money and account mails on, security on and locked; customers see no staff types', async () => {
    const res = await t.api('GET', '/account/notification-settings', { token: a.token });
    expect(res.status).toBe(200);
    const byType = Object.fromEntries(res.body.data.map((s: { type: string }) => [s.type, s]));
    expect(byType.transfer_received).toMatchObject({
      mail: true,
      locked: false,
      group: 'money',
      label: 'Transfer received',
    });
    expect(byType.verification_rejected).toMatchObject({ mail: true, locked: false });
    expect(byType.two_factor_reset).toMatchObject({ mail: true, locked: true });
    expect(byType.api_credentials_revoked).toMatchObject({ mail: true, locked: true });
    expect(byType.topup_review).toBeUndefined();
    const s = await t.api('GET', '/account/notification-settings', { token: staff.token });
    expect(s.body.data.find((x: { type: string }) => x.type === 'topup_review')).toMatchObject({
      mail: false,
      locked: false,
      group: 'staff',
    });
    // staff have no wallet or cards of their own: only their 2FA, the review queue, approvals and balance alerts
    expect(s.body.data.find((x: { type: string }) => x.type === 'balance_low')).toMatchObject({ mail: true });
    expect(s.body.data.map((x: { type: string }) => x.type).sort()).toEqual([
      'approval_decided',
      'approval_requested',
      'balance_low',
      'deposit_unassigned',
      'topup_review',
      'two_factor_reset',
      'verification_submitted',
    ]);
  });

  it('PUT changes only the types given, and answers the settings as they now are', async () => {
    const c = await newIndividual(t);
    const res = await t.api('PUT', '/account/notification-settings', {
      token: c.token,
      body: { mail: { transfer_received: false, card_terminated: false } },
    });
    expect(res.status).toBe(200);
    const mail = Object.fromEntries(res.body.data.map((s: { type: string; mail: boolean }) => [s.type, s.mail]));
    expect(mail).toMatchObject({ transfer_received: false, card_terminated: false, topup_approved: true });
    const back = await t.api('PUT', '/account/notification-settings', {
      token: c.token,
      body: { mail: { transfer_received: true } },
    });
    expect(back.body.data.find((s: { type: string }) => s.type === 'transfer_received').mail).toBe(true);
    // someone else's settings are untouched
    expect(
      (await t.api('GET', '/account/notification-settings', { token: a.token })).body.data.find(
        (s: { type: string }) => s.type === 'card_terminated',
      ).mail,
    ).toBe(true);
  });

  it('refuses turning a security mail off, unknown types, staff types for customers and non-booleans: 422 per field', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ two_factor_reset: false }, 'mail.two_factor_reset', /security and cannot be turned off/],
      [{ api_credentials_generated: false }, 'mail.api_credentials_generated', /cannot be turned off/],
      [{ lottery_won: true }, 'mail.lottery_won', /Unknown notification type/],
      [{ topup_review: true }, 'mail.topup_review', /Unknown notification type/],
      [{ transfer_received: 'no' }, 'mail.transfer_received', /true or false/],
    ];
    for (const [mail, field, message] of cases) {
      const res = await t.api('PUT', '/account/notification-settings', { token: a.token, body: { mail } });
      expect(res.status, field).toBe(422);
      expect(res.body.error[field]?.[0], field).toMatch(message);
    }
    const missing = await t.api('PUT', '/account/notification-settings', { token: a.token, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.mail).toBeDefined();
    // nothing of a refused request was saved, even its valid parts
    const mixed = await t.api('PUT', '/account/notification-settings', {
      token: a.token,
      body: { mail: { topup_denied: false, two_factor_reset: false } },
    });
    expect(mixed.status).toBe(422);
    expect(
      (await t.api('GET', '/account/notification-settings', { token: a.token })).body.data.find(
        (s: { type: string }) => s.type === 'topup_denied',
      ).mail,
    ).toBe(true);
    // turning a security mail on is harmless
    expect(
      (
        await t.api('PUT', '/account/notification-settings', {
          token: a.token,
          body: { mail: { two_factor_reset: true } },
        })
      ).status,
    ).toBe(200);
  });

  it('staff may choose mail for the review queue', async () => {
    const res = await t.api('PUT', '/account/notification-settings', {
      token: staff.token,
      body: { mail: { topup_review: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.find((s: { type: string }) => s.type === 'topup_review').mail).toBe(true);
  });
});

describe('the mail outbox', () => {
  it('mails per the settings: off means a notification without mail; security always mails', async () => {
    const c = await newIndividual(t, { first_name: 'Kofi' });
    await t.api('PUT', '/account/notification-settings', {
      token: c.token,
      body: { mail: { transfer_received: false } },
    });
    await give(c, 1, 'transfer_received');
    await give(c, 1, 'api_credentials_revoked');
    const rows = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
    expect(rows.map((r) => [r.type, r.mailState]).sort()).toEqual([
      ['api_credentials_revoked', 'pending'],
      ['transfer_received', null],
    ]);
    expect(await sendDueMail(t.ctx, { userIds: [c.id] })).toBe(1);
    const sent = noteMails(c);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('Hello Kofi,');
    expect(sent[0]!.text).toContain('Line one');
    expect(sent[0]!.text).toContain(`${t.ctx.config.appUrl}/portal/wallet-transfers`);
    expect(sent[0]!.html).toContain('Open in Cardwallet');
    // once: nothing is due any more
    expect(await sendDueMail(t.ctx, { userIds: [c.id] })).toBe(0);
    expect(noteMails(c)).toHaveLength(1);
  });

  it('events told together are mailed once each, a failed one kept for its retry', async () => {
    const c = await newIndividual(t);
    const keys = Array.from({ length: 30 }, () => `kick:${crypto.randomUUID()}`);
    for (const [i, k] of keys.entries())
      await notify(
        t.ctx.db,
        [c.id],
        { type: 'two_factor_reset', title: `Note kick ${i}`, body: 'B', eventKey: k },
        t.clock.now(),
      );
    const real = t.ctx.mailer.send;
    t.ctx.mailer.send = (m) => (m.subject === 'Note kick 7' ? Promise.reject(new Error('SMTP down')) : real(m));
    try {
      for (const k of keys) mailSoon(t.ctx, [k]);
      mailSoon(t.ctx, keys.slice(0, 5));
      await t.ctx.background.settled();
    } finally {
      t.ctx.mailer.send = real;
    }
    const subjects = noteMails(c).map((m) => m.subject);
    expect(subjects).toHaveLength(29);
    expect(new Set(subjects).size).toBe(29);
    const rows = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
    const failed = rows.filter((r) => r.title === 'Note kick 7');
    expect(failed).toEqual([expect.objectContaining({ mailState: 'pending', mailAttempts: 1 })]);
    expect(failed[0]!.mailNextAttemptAt!.getTime() - t.clock.now().getTime()).toBeGreaterThan(
      MAIL_RETRY_MS[0]! - 5_000,
    );
    expect(rows.filter((r) => r.mailState === 'sent')).toHaveLength(29);
  });

  it('two workers at once send each mail once', async () => {
    const c = await newIndividual(t);
    await give(c, 6, 'two_factor_reset');
    await Promise.all([
      sendDueMail(t.ctx, { userIds: [c.id], limit: 2 }),
      sendDueMail(t.ctx, { userIds: [c.id], limit: 2 }),
      sendDueMail(t.ctx, { userIds: [c.id] }),
    ]);
    expect(noteMails(c)).toHaveLength(6);
    expect(new Set(noteMails(c).map((m) => m.subject)).size).toBe(6);
  });

  it('records each mail as sent while a later send hangs, so a lease running out sends none of them again', async () => {
    const c = await newIndividual(t);
    await give(c, 4, 'two_factor_reset');
    const real = t.ctx.mailer.send;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let sends = 0;
    t.ctx.mailer.send = async (m) => {
      if (m.to === c.email && ++sends === 3) await released;
      return real(m);
    };
    const states = async () =>
      (await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id)))
        .map((r) => r.mailState)
        .sort();
    try {
      const sending = sendDueMail(t.ctx, { userIds: [c.id] });
      await expect.poll(states, { timeout: 5_000 }).toEqual(['pending', 'pending', 'sent', 'sent']);
      release();
      expect(await sending).toBe(4);
    } finally {
      release();
      t.ctx.mailer.send = real;
    }
    expect(await states()).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(noteMails(c)).toHaveLength(4);
  });

  it('stops, with the error, when the database cannot record an outcome; the rest stay claimed for after the lease', async () => {
    const c = await newIndividual(t);
    await give(c, 3, 'two_factor_reset');
    const real = { send: t.ctx.mailer.send, query: t.ctx.database.query };
    let sends = 0;
    // the first outcome's write fails while the second mail is being sent
    t.ctx.mailer.send = async (m) => {
      if (m.to === c.email && ++sends === 2) await new Promise((r) => setTimeout(r, 50));
      return real.send(m);
    };
    t.ctx.database.query = (name, text, params) =>
      name === 'mail_outcomes' ? Promise.reject(new Error('database gone')) : real.query(name, text, params);
    try {
      await expect(sendDueMail(t.ctx, { userIds: [c.id] })).rejects.toThrow('database gone');
    } finally {
      Object.assign(t.ctx.mailer, { send: real.send });
      t.ctx.database.query = real.query;
    }
    expect(sends).toBe(2);
    const rows = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
    expect(rows.map((r) => [r.mailState, r.mailAttempts])).toEqual([
      ['pending', 1],
      ['pending', 1],
      ['pending', 1],
    ]);
    for (const r of rows) expect(r.mailNextAttemptAt!.getTime()).toBeGreaterThan(t.clock.now().getTime() + 60_000);
  });

  it('leaves a claimed mail whose lease is about to end to the next holder', async () => {
    const c = await newIndividual(t);
    await give(c, 1, 'two_factor_reset');
    const [n] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
    const claimed = {
      id: n!.id,
      type: n!.type,
      title: n!.title,
      body: n!.body,
      link: n!.link,
      attempts: 0,
      email: c.email,
      firstName: 'Kofi',
    };
    await sendClaimed(t.ctx, [{ ...claimed, leaseEnds: new Date(t.clock.now().getTime() + 5_000) }]);
    expect(noteMails(c)).toHaveLength(0);
    await sendClaimed(t.ctx, [{ ...claimed, leaseEnds: new Date(t.clock.now().getTime() + 60_000) }]);
    expect(noteMails(c)).toHaveLength(1);
    const [after] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
    expect(after!.mailState).toBe('sent');
  });

  it('a failed send is retried after its backoff, then sent; after the last try it is given up', async () => {
    const c = await newIndividual(t);
    await give(c, 1, 'two_factor_reset');
    const real = t.ctx.mailer.send;
    let failing = true;
    t.ctx.mailer.send = (m) => (failing && m.to === c.email ? Promise.reject(new Error('SMTP down')) : real(m));
    try {
      await sendDueMail(t.ctx, { userIds: [c.id] });
      let [row] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
      expect(row).toMatchObject({ mailState: 'pending', mailAttempts: 1 });
      expect(row!.mailNextAttemptAt!.getTime() - t.clock.now().getTime()).toBeGreaterThan(MAIL_RETRY_MS[0]! - 5_000);
      // not due yet
      await sendDueMail(t.ctx, { userIds: [c.id] });
      [row] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
      expect(row!.mailAttempts).toBe(1);
      failing = false;
      t.clock.advance(MAIL_RETRY_MS[0]! + 1_000);
      await sendDueMail(t.ctx, { userIds: [c.id] });
      [row] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, c.id));
      expect(row).toMatchObject({ mailState: 'sent', mailAttempts: 2 });
      expect(noteMails(c)).toHaveLength(1);

      const d = await newIndividual(t);
      await give(d, 1, 'two_factor_reset');
      t.ctx.mailer.send = (m) => (m.to === d.email ? Promise.reject(new Error('mailbox gone')) : real(m));
      for (let i = 0; i <= MAIL_RETRY_MS.length; i++) {
        await sendDueMail(t.ctx, { userIds: [d.id] });
        t.clock.advance((MAIL_RETRY_MS[i] ?? 0) + 1_000);
      }
      const [gone] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, d.id));
      expect(gone).toMatchObject({ mailState: 'failed', mailAttempts: MAIL_RETRY_MS.length + 1 });
    } finally {
      t.ctx.mailer.send = real;
    }
  });

  it('is a scheduled job the scheduler runs on every tick', () => {
    expect(JOBS.map((j) => j.name)).toContain('notification-mail');
    const job = jobByName('notification-mail')!;
    const at = new Date('2026-01-01T10:00:00Z');
    expect(job.periodOf(at)).not.toBe(job.periodOf(new Date(at.getTime() + 60_000)));
  });

  it('an event notifies once however often it is told', async () => {
    const c = await newIndividual(t);
    const e = { type: 'two_factor_reset' as const, title: 'Reset', body: 'x', eventKey: `once:${c.id}` };
    expect(await notify(t.ctx.db, [c.id], e, t.clock.now())).toBe(1);
    expect(await notify(t.ctx.db, [c.id], e, t.clock.now())).toBe(0);
    expect((await list(c)).body.total).toBe(1);
  });

  it('company audiences leave out users who never accepted their invitation', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin, 'user');
    await t.api('POST', `/company/users/${admin.companyId}`, {
      token: admin.token,
      body: {
        first_name: 'Ama',
        last_name: 'Owusu',
        phone_number: '+233245556677',
        email: `pending.${crypto.randomUUID()}@example.com`,
        role: 'admin',
      },
    });
    const n = await notify(
      t.ctx.db,
      { owner: admin.companyId! },
      { type: 'card_terminated', title: 'T', body: 'B', eventKey: `co:${admin.companyId}` },
      t.clock.now(),
    );
    expect(n).toBe(2);
    expect((await list(member)).body.total).toBe(1);
    const admins = await notify(
      t.ctx.db,
      { owner: admin.companyId!, companyAdmins: true },
      { type: 'api_credentials_generated', title: 'T', body: 'B', eventKey: `coa:${admin.companyId}` },
      t.clock.now(),
    );
    expect(admins).toBe(1);
  });
});
