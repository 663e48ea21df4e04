import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsOf } from '@shared/money';
import { apiFees } from '../../server/jobs/api-fees';
import { runJob } from '../../server/jobs/runner';
import { callbackEndpoints, ledgerTransfers, webhookDeliveries, webhookEvents } from '../../server/db/schema';
import { callbackUrlProblem, isPrivateAddress } from '../../server/modules/integrations/ssrf';
import { deliverDue, emitEvent } from '../../server/modules/integrations/webhooks';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newStaff } from './support/actors';
import { DELIVERY_EPOCH, generateCredentials, holdDeliveryLock, startReceiver, verifiedCompany } from './support/api';
import { setClock, walletCents } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A verified company with API credentials and `cents` in its wallet. */
async function client(cents = 10_000) {
  const admin = await verifiedCompany(t);
  await generateCredentials(t, admin);
  if (cents) await fundWallet(t, admin.companyId!, cents);
  return admin;
}
const charges = (a: Actor, month: string) =>
  t.ctx.db
    .select()
    .from(ledgerTransfers)
    .where(eq(ledgerTransfers.reference, `API-${month}-${a.companyId}`));
/** The api-monthly fee of the schedule that applies to the company, in cents. */
async function apiFeeOf(a: Actor) {
  const fees = (await t.api('GET', `/fees?for=company&for_id=${a.companyId}`, { token: a.token })).body.data;
  const fee = fees.find((f: { name: string }) => f.name === 'api-monthly');
  return fee.state === 'Active' ? centsOf(fee.value) : 0;
}
const summaryOf = (r: Awaited<ReturnType<typeof runJob>>) =>
  r.ran ? (r.summary as { charged: number; unpaid: number }) : { charged: 0, unpaid: 0 };

describe('the monthly API fee', () => {
  it('charges the schedule fee once a month to a company with active credentials, through the ledger', async () => {
    const a = await client();
    const fee = await apiFeeOf(a);
    expect(fee).toBeGreaterThan(0);
    const before = await walletCents(t, a);
    expect((await runJob(t.ctx, apiFees, '2031-03-05')).ran).toBe(true);
    expect(await walletCents(t, a)).toBe(before - fee);
    // again the same day, and on a later day of the month: nothing more
    await apiFees.run(t.ctx, '2031-03-05');
    expect((await runJob(t.ctx, apiFees, '2031-03-05')).ran).toBe(false);
    expect((await runJob(t.ctx, apiFees, '2031-03-20')).ran).toBe(true);
    expect(await walletCents(t, a)).toBe(before - fee);
    expect(await charges(a, '2031-03')).toHaveLength(1);

    const report = await t.api('GET', `/reports/view-wallet-transactions?wallet=${a.companyId}&type=api_fee`, {
      token: a.token,
    });
    expect(report.status).toBe(200);
    expect(report.body.data).toEqual([
      expect.objectContaining({
        type: 'api_fee',
        direction: 'debit',
        amount: (fee / 100).toFixed(2),
        fees: (fee / 100).toFixed(2),
        trans_ref: `API-2031-03-${a.companyId}`,
        description: 'Monthly API fee 2031-03',
      }),
    ]);
    // the next month is charged again
    await runJob(t.ctx, apiFees, '2031-04-01');
    expect(await walletCents(t, a)).toBe(before - 2 * fee);
    const all = await t.api('GET', `/reports/view-wallet-transactions?wallet=${a.companyId}`, { token: a.token });
    expect(all.body.data.filter((r: { type: string }) => r.type === 'api_fee')).toHaveLength(2);
  });

  it('charges once when two runs overlap', async () => {
    const a = await client();
    const fee = await apiFeeOf(a);
    const before = await walletCents(t, a);
    const runs = await Promise.all([
      runJob(t.ctx, apiFees, '2031-05-01'),
      runJob(t.ctx, apiFees, '2031-05-02'),
      runJob(t.ctx, apiFees, '2031-05-02'),
    ]);
    expect(runs.filter((r) => r.ran)).toHaveLength(2); // one claim per day
    expect(await charges(a, '2031-05')).toHaveLength(1);
    expect(await walletCents(t, a)).toBe(before - fee);
    // what the runs report adds up to what was charged
    const charged = await t.ctx.db
      .select()
      .from(ledgerTransfers)
      .where(like(ledgerTransfers.reference, 'API-2031-05-%'));
    expect(runs.reduce((s, r) => s + summaryOf(r).charged, 0)).toBe(charged.length);

    const direct = await Promise.all([apiFees.run(t.ctx, '2031-06-01'), apiFees.run(t.ctx, '2031-06-01')]);
    expect(await charges(a, '2031-06')).toHaveLength(1);
    expect(await walletCents(t, a)).toBe(before - 2 * fee);
    const june = await t.ctx.db.select().from(ledgerTransfers).where(like(ledgerTransfers.reference, 'API-2031-06-%'));
    expect(direct.reduce((s, r) => s + Number(r.charged), 0)).toBe(june.length);
  });

  it('skips revoked credentials and inactive fees, uses company fees, and charges a poor company once it can pay', async () => {
    const superAdmin = await newStaff(t, 'Super-Admin');
    const revoked = await client();
    expect((await t.api('DELETE', `/third-party/clients/${revoked.companyId}`, { token: revoked.token })).status).toBe(
      202,
    );
    const poor = await client(0);
    const inactive = await client();
    const special = await client();
    const defaults = (await t.api('GET', '/fees?for=default&per_page=100', { token: superAdmin.token })).body.data;
    const apiMonthly = defaults.find((f: { name: string }) => f.name === 'api-monthly');
    const override = (a: Actor, value: string, status: string) =>
      t.api('PUT', `/fees/${apiMonthly.id}`, {
        token: superAdmin.token,
        body: { value, status, for: 'company', for_id: a.companyId },
      });
    expect((await override(inactive, '50.00', 'Inactive')).status).toBe(200);
    expect((await override(special, '12.50', 'Active')).status).toBe(200);
    expect(await apiFeeOf(inactive)).toBe(0);
    expect(await apiFeeOf(special)).toBe(1_250);
    const specialBefore = await walletCents(t, special);

    const first = await runJob(t.ctx, apiFees, '2031-07-01');
    expect(summaryOf(first).unpaid).toBeGreaterThanOrEqual(1);
    for (const a of [revoked, poor, inactive]) expect(await charges(a, '2031-07')).toHaveLength(0);
    expect(await walletCents(t, special)).toBe(specialBefore - 1_250);
    expect(await walletCents(t, poor)).toBe(0);

    await fundWallet(t, poor.companyId!, 10_000);
    await runJob(t.ctx, apiFees, '2031-07-15');
    await runJob(t.ctx, apiFees, '2031-07-28');
    expect(await charges(poor, '2031-07')).toHaveLength(1);
    expect(await walletCents(t, poor)).toBe(10_000 - (await apiFeeOf(poor)));
    for (const a of [revoked, inactive]) expect(await charges(a, '2031-07')).toHaveLength(0);
    expect(await walletCents(t, special)).toBe(specialBefore - 1_250);
  });
});

const PRIVATE = [
  'http://127.0.0.1/hooks',
  'http://localhost/hooks',
  'http://10.0.0.5/hooks',
  'http://172.16.3.4/hooks',
  'http://192.168.1.9/hooks',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]/hooks',
  'http://[fd00::1]/hooks',
  'http://0.0.0.0/hooks',
  'http://[fe80::1]/hooks',
  'http://100.64.0.1/hooks',
  'http://2130706433/hooks', // 127.0.0.1 written as a number
  'http://[::ffff:127.0.0.1]/hooks', // IPv4-mapped IPv6
  'http://[::ffff:169.254.169.254]/hooks',
];
const MALFORMED = [
  'ftp://93.184.216.34/hooks',
  'file:///etc/passwd',
  'gopher://93.184.216.34/',
  'javascript:alert(1)',
  'http://user:pw@93.184.216.34/hooks',
  'not a url',
];

describe('callback URLs on private networks (SSRF)', () => {
  it('are refused outside development and test; production also wants https', async () => {
    for (const url of PRIVATE) {
      expect(await callbackUrlProblem(url, 'staging'), url).toBe('The callback URL must point at a public address');
      expect(await callbackUrlProblem(url.replace(/^http:/, 'https:'), 'production'), url).toBe(
        'The callback URL must point at a public address',
      );
      for (const env of ['test', 'development'])
        expect(await callbackUrlProblem(url, env), `${url} in ${env}`).toBeNull();
    }
    for (const url of MALFORMED)
      for (const env of ['staging', 'production'])
        expect(await callbackUrlProblem(url, env), `${url} in ${env}`).toEqual(expect.any(String));
    expect(await callbackUrlProblem('http://93.184.216.34/hooks', 'production')).toBe(
      'The callback URL must use https',
    );
    expect(await callbackUrlProblem('https://93.184.216.34/hooks', 'production')).toBeNull();
    expect(await callbackUrlProblem('http://93.184.216.34/hooks', 'staging')).toBeNull();
    expect(await callbackUrlProblem('https://no-such-host.invalid/hooks', 'production')).toEqual(expect.any(String));
  });

  it('classifies addresses at the edges of the private ranges', () => {
    for (const ip of [
      '172.16.0.0',
      '172.31.255.255',
      '10.255.255.255',
      '127.9.9.9',
      '169.254.0.1',
      '::ffff:10.1.2.3',
      '::ffff:a01:203',
      'fc00::1',
      '64:ff9b::a00:1',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      '172.15.255.255',
      '172.32.0.0',
      '192.169.0.1',
      '11.0.0.1',
      '8.8.8.8',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  describe('in a production-configured app', () => {
    let prod: TestApp;
    let unlock: () => Promise<void>;
    beforeAll(async () => {
      unlock = await holdDeliveryLock();
      prod = await startTestApp({ env: 'production' });
      setClock(prod, DELIVERY_EPOCH);
    });
    afterAll(async () => {
      await prod.close();
      await unlock();
    });

    it('answers 422 error.callback_url for them, and checks again at each delivery', async () => {
      expect(prod.ctx.config.env).toBe('production');
      const admin = await verifiedCompany(prod);
      await generateCredentials(prod, admin);
      const save = (callback_url: string) =>
        prod.api('POST', '/third-party/callback-request', { token: admin.token, body: { callback_url, active: true } });
      for (const url of [...PRIVATE, ...PRIVATE.map((u) => u.replace(/^http:/, 'https:')), ...MALFORMED]) {
        const res = await save(url);
        expect(res.status, url).toBe(422);
        expect(res.body.error.callback_url[0], url).toEqual(expect.any(String));
      }
      expect(
        (await prod.api('GET', '/third-party/callback-details', { token: admin.token })).body.data.callback_url,
      ).toBeNull();
      expect((await save('https://93.184.216.34/hooks')).status).toBe(200);

      // a URL that turns private after it was saved (DNS can change) is not called
      const receiver = await startReceiver(prod);
      try {
        await prod.ctx.db
          .update(callbackEndpoints)
          .set({ url: receiver.url.replace('http:', 'https:') })
          .where(eq(callbackEndpoints.companyId, admin.companyId!));
        await emitEvent(prod.ctx.db, admin.companyId!, 'card.frozen', { card_id: 'x' }, prod.ctx.now());
        await deliverDue(prod.ctx);
        expect(receiver.received).toHaveLength(0);
        const [event] = await prod.ctx.db
          .select()
          .from(webhookEvents)
          .where(eq(webhookEvents.companyId, admin.companyId!));
        const [attempt] = await prod.ctx.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, event!.id));
        expect(attempt).toMatchObject({ statusCode: null, error: 'The callback URL must point at a public address' });
        await prod.ctx.db.update(webhookEvents).set({ state: 'skipped' }).where(eq(webhookEvents.id, event!.id));
      } finally {
        await receiver.close();
      }
    });
  });
});
