import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { momoSettings } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { startTopup, topupRow, withMomoSettings } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOCKED = 90_000;
const PUBLIC_KEYS = ['flat_fee', 'momo_name', 'momo_number', 'network', 'rate'];
const details = async (who: Actor) => {
  const res = await t.api('GET', '/param/momo-details', { token: who.token });
  expect(res.status).toBe(200);
  return res.body.data;
};
const sync = (who: Actor, body: unknown) => t.api('PUT', '/param/momo-sync', { token: who.token, body });
const entitiesOf = async (who: Actor) =>
  (await t.api('GET', '/individuals/profile', { token: who.token })).body.data.user.entities;
const valid = () => ({
  momo_name: 'Cardwallet Payments',
  momo_number: '+233240001111',
  network: 'Vodafone Cash',
  rate: '15.50',
  flat_fee: '5.00',
  momo_alert_emails: ['ops@example.com'],
  entity_users: [] as string[],
});

/** Runs fn with the settings as they were, and puts them back afterwards. */
const keepingSettings = (fn: () => Promise<void>) =>
  withMomoSettings(async () => {
    const [saved] = await t.ctx.db.select().from(momoSettings).where(eq(momoSettings.id, 1));
    try {
      await fn();
    } finally {
      await t.ctx.db.update(momoSettings).set(saved!).where(eq(momoSettings.id, 1));
    }
  });

describe('GET /param/momo-details', () => {
  it('shows customers and Admins the payment details only; the Super-Admin also sees alerts and confirmers', async () => {
    const admin = await newCompany(t);
    for (const who of [await newIndividual(t), admin, await newCompanyMember(t, admin), await newStaff(t, 'Admin')]) {
      const d = await details(who);
      expect(Object.keys(d).sort()).toEqual(PUBLIC_KEYS);
      expect(d.rate).toMatch(/^\d+(\.\d{1,4})?$/);
      expect(d.flat_fee).toMatch(/^\d+\.\d{2}$/);
    }
    const full = await details(await newStaff(t, 'Super-Admin'));
    expect(Object.keys(full).sort()).toEqual(
      [...PUBLIC_KEYS, 'confirmation_users', 'entity_users', 'momo_alert_emails'].sort(),
    );
    expect(Array.isArray(full.entity_users)).toBe(true);
    expect(full.confirmation_users.map((u: { id: string }) => u.id)).toEqual(full.entity_users);
    expect(Array.isArray(full.momo_alert_emails)).toBe(true);
    expect((await t.api('GET', '/param/momo-details')).status).toBe(401);
  });
});

describe('PUT /param/momo-sync', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no momo name', { momo_name: undefined }, 'momo_name', 'Momo Name is required'],
    ['a blank momo name', { momo_name: '  ' }, 'momo_name', 'Momo Name is required'],
    ['no momo number', { momo_number: undefined }, 'momo_number', 'Momo Number is required'],
    ['no network', { network: '' }, 'network', 'Mobile Network is required'],
    ['no rate', { rate: undefined }, 'rate', 'Rate is required'],
    ['a zero rate', { rate: '0' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['a zero rate as a number', { rate: 0 }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['a negative rate', { rate: '-15.5' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['a rate with 5 decimals', { rate: '15.12345' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['a rate in words', { rate: 'fifteen' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['an empty rate', { rate: '' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    [
      'a rate with thousands commas',
      { rate: '1,500' },
      'rate',
      'Rate must be a number above 0 with at most 4 decimals',
    ],
    ['a rate in exponent notation', { rate: '1e2' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['a rate of a million', { rate: '1000000' }, 'rate', 'Rate must be a number above 0 with at most 4 decimals'],
    ['a rate that is no number or string', { rate: true }, 'rate', 'Rate is required'],
    ['no flat fee', { flat_fee: undefined }, 'flat_fee', 'Flat Fee is required'],
    ['a flat fee in words', { flat_fee: 'five' }, 'flat_fee', 'Flat Fee must be a number with at most 2 decimals'],
    [
      'a flat fee with thousands commas',
      { flat_fee: '1,000.00' },
      'flat_fee',
      'Flat Fee must be a number with at most 2 decimals',
    ],
    [
      'a flat fee of ten digits',
      { flat_fee: '1000000000' },
      'flat_fee',
      'Flat Fee must be a number with at most 2 decimals',
    ],
    [
      'a flat fee as a number with 3 decimals',
      { flat_fee: 0.001 },
      'flat_fee',
      'Flat Fee must be a number with at most 2 decimals',
    ],
    [
      'a flat fee with 3 decimals',
      { flat_fee: '5.005' },
      'flat_fee',
      'Flat Fee must be a number with at most 2 decimals',
    ],
    ['a negative flat fee', { flat_fee: -1 }, 'flat_fee', 'Flat Fee must be a number with at most 2 decimals'],
    ['no alert emails', { momo_alert_emails: undefined }, 'momo_alert_emails', 'MoMo Alert Emails are required'],
    ['an empty alert list', { momo_alert_emails: ' , ' }, 'momo_alert_emails', 'MoMo Alert Emails are required'],
    [
      'a bad alert email',
      { momo_alert_emails: 'ops@example.com, not-an-email' },
      'momo_alert_emails',
      'Each alert email must be a valid email address',
    ],
    [
      'a bad alert email in a list',
      { momo_alert_emails: ['ops@example.com', 'nope'] },
      'momo_alert_emails',
      'Each alert email must be a valid email address',
    ],
    [
      'a confirmer id that is no UUID',
      { entity_users: ['42'] },
      'entity_users',
      'Each confirmation user id must be a user id (UUID)',
    ],
    [
      'confirmer ids that are no UUIDs',
      { entity_users: 'abc, def' },
      'entity_users',
      'Each confirmation user id must be a user id (UUID)',
    ],
  ];

  it.each(cases)('refuses %s (422) and saves nothing', { timeout: LOCKED }, (_what, change, field, message) =>
    withMomoSettings(async () => {
      const sa = await newStaff(t, 'Super-Admin');
      const before = await details(sa);
      const res = await sync(sa, { ...valid(), ...change });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(message);
      expect(res.body.error[field]).toEqual([message]);
      expect(await details(sa)).toEqual(before);
    }),
  );

  it('accepts only existing customers as confirmers', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const sa = await newStaff(t, 'Super-Admin');
      const before = await details(sa);
      for (const id of [randomUUID(), sa.id]) {
        const res = await sync(sa, { ...valid(), entity_users: [id] });
        expect(res.status).toBe(422);
        expect(res.body.error.entity_users).toEqual([`No customer has the id ${id}`]);
      }
      expect(await details(sa)).toEqual(before);
    }),
  );

  it(
    'saves the settings; new Momo top-ups use the rate and fee, the named users become momo agents',
    { timeout: LOCKED },
    () =>
      keepingSettings(async () => {
        const sa = await newStaff(t, 'Super-Admin');
        const company = await newCompany(t);
        const [agent, member, bystander] = [
          await newIndividual(t),
          await newCompanyMember(t, company),
          await newIndividual(t),
        ];
        const alert = `alerts.${randomUUID()}@example.com`;
        const res = await sync(sa, {
          ...valid(),
          rate: 12.3456,
          flat_fee: 2.5,
          momo_alert_emails: `${alert.toUpperCase()}, second@example.com`,
          entity_users: `${agent.id}, ${member.id}, ${agent.id}`,
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          message: 'Momo settings saved.',
          data: {
            momo_name: 'Cardwallet Payments',
            momo_number: '+233240001111',
            network: 'Vodafone Cash',
            rate: '12.3456',
            flat_fee: '2.50',
            momo_alert_emails: [alert, 'second@example.com'],
            entity_users: [agent.id, member.id],
            confirmation_users: [
              { id: agent.id, first_name: 'Abena', last_name: 'Asante', email: agent.email, company_name: null },
              {
                id: member.id,
                first_name: 'Esi',
                last_name: 'Badu',
                email: member.email,
                company_name: expect.any(String),
              },
            ],
          },
        });
        expect(await details(bystander)).toEqual({
          momo_name: 'Cardwallet Payments',
          momo_number: '+233240001111',
          network: 'Vodafone Cash',
          rate: '12.3456',
          flat_fee: '2.50',
        });
        expect(await entitiesOf(agent)).toEqual(['momo']);
        expect(await entitiesOf(member)).toEqual(['momo']);
        expect(await entitiesOf(bystander)).toEqual([]);

        // 10.00 × 12.3456 = 123.456 → 123.46, + 2.50
        const top = await startTopup(t, bystander, '10.00', 'momo');
        expect(top.momo).toMatchObject({
          amount_to_send: '125.96',
          network: 'Vodafone Cash',
          momo_number: '+233240001111',
          momo_name: 'Cardwallet Payments',
        });
        const mail = t.mails.find((m) => m.to.split(',').includes(alert));
        expect(mail?.subject).toBe(`New Momo top-up ${top.reference}: GHS 125.96`);
        const { id } = await topupRow(t, bystander, top.reference);
        expect(
          (await t.api('POST', '/wallet/momo-confirm', { token: member.token, body: { topup_id: id } })).status,
        ).toBe(200);

        // Leaving someone out takes the role away.
        expect((await sync(sa, { ...valid(), entity_users: [member.id] })).status).toBe(200);
        expect(await entitiesOf(agent)).toEqual([]);
        expect(await entitiesOf(member)).toEqual(['momo']);
        const next = await topupRow(t, bystander, (await startTopup(t, bystander, '10.00', 'momo')).reference);
        expect(
          (await t.api('POST', '/wallet/momo-confirm', { token: agent.token, body: { topup_id: next.id } })).status,
        ).toBe(403);
        expect((await t.api('GET', '/wallet/list-momo-topups', { token: agent.token })).status).toBe(403);
        // a top-up keeps the amount it was started with
        expect(
          (await t.api('GET', `/wallet/topup/${top.reference}`, { token: bystander.token })).body.data.momo
            .amount_to_send,
        ).toBe('125.96');
      }),
  );
});

describe('PUT /param/momo-sync: the rate', () => {
  it(
    'is kept in one form whatever way it is typed: at least 2 decimals, no trailing zeros beyond',
    { timeout: LOCKED },
    () =>
      keepingSettings(async () => {
        const sa = await newStaff(t, 'Super-Admin');
        for (const [typed, kept] of [
          ['15.5', '15.50'],
          [15.5, '15.50'],
          ['15.5000', '15.50'],
          ['015', '15.00'],
          ['12.3450', '12.345'],
          ['0.0125', '0.0125'],
          [' 999999.9999 ', '999999.9999'],
          ['7.1200', '7.12'],
          ['7.1230', '7.123'],
        ] as const) {
          const res = await sync(sa, { ...valid(), rate: typed });
          expect(res.status, String(typed)).toBe(200);
          expect(res.body.data.rate).toBe(kept);
          expect((await details(sa)).rate).toBe(kept);
        }
      }),
  );
});

describe('GET /param/momo-users (the confirmation-user picker)', () => {
  const find = (who: Actor, search?: string) =>
    t.api('GET', `/param/momo-users${search === undefined ? '' : `?search=${encodeURIComponent(search)}`}`, {
      token: who.token,
    });

  it('finds customers by name or email, company users with their company; never staff', async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    // A last name of its own: other files' customers share the database (one of them is 'Abena Asante…' too).
    const lastName = `Asantewaa${randomUUID().slice(0, 8)}`;
    const person = await newIndividual(t, { last_name: lastName });
    const byEmail = await find(sa, person.email.toUpperCase());
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toEqual([
      { id: person.id, first_name: 'Abena', last_name: lastName, email: person.email, company_name: null },
    ]);
    const byMemberEmail = (await find(sa, member.email)).body.data;
    expect(byMemberEmail).toHaveLength(1);
    expect(byMemberEmail[0]).toMatchObject({ id: member.id, first_name: 'Esi', last_name: 'Badu' });
    expect(byMemberEmail[0].company_name).toEqual(expect.any(String));
    // First and last name together, in any case, and a part of the last name is enough.
    const byName = (await find(sa, `abena ${lastName.slice(0, -2).toLowerCase()}`)).body.data;
    expect(byName).toEqual([expect.objectContaining({ id: person.id, first_name: 'Abena', last_name: lastName })]);
    expect((await find(sa, sa.email)).body.data).toEqual([]);
    // LIKE's wildcards are searched for, not obeyed
    expect((await find(sa, '%')).body.data).toEqual([]);
    expect((await find(sa)).body.data.length).toBeLessThanOrEqual(20);
  });

  it('is for the Super-Admin only, and refuses a search over 100 characters', async () => {
    const admin = await newCompany(t);
    for (const who of [await newIndividual(t), admin, await newStaff(t, 'Admin')])
      expect((await find(who, 'a')).status).toBe(403);
    expect((await t.api('GET', '/param/momo-users')).status).toBe(401);
    const long = await find(await newStaff(t, 'Super-Admin'), 'x'.repeat(101));
    expect(long.status).toBe(422);
    expect(long.body.error.search).toEqual(['Search is at most 100 characters']);
  });

  it('names back a picked customer deleted before the save, and saves nothing', { timeout: LOCKED }, () =>
    keepingSettings(async () => {
      const sa = await newStaff(t, 'Super-Admin');
      const company = await newCompany(t);
      const member = await newCompanyMember(t, company);
      const before = await details(sa);
      expect(
        (await t.api('DELETE', `/company/users/${company.companyId}/${member.id}`, { token: company.token })).status,
      ).toBe(202);
      const res = await sync(sa, { ...valid(), entity_users: [member.id] });
      expect(res.status).toBe(422);
      expect(res.body.error.entity_users).toEqual([
        `Esi Badu (${member.email}) is no longer a customer: remove them and save again`,
      ]);
      expect(await details(sa)).toEqual(before);
      expect((await find(sa, member.email)).body.data).toEqual([]);
    }),
  );
});
