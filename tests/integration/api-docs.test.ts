import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companies } from '../../server/db/schema';
import { deliverDue } from '../../server/modules/integrations/webhooks';
import { type TestApp, startTestApp } from './support/app';
import { newCompany, newStaff } from './support/actors';
import { fundWallet } from './support/money';
import { freePort } from './support/ports';

/** docs/api.md, run as an integrator would: its examples against a live server and a loopback receiver. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const examples = () => {
  const md = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  // Dynamic import() is not available to code compiled at run time here; hand it in instead.
  return [...md.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\bimport\(/g, '__import(')).join('\n');
};

it('follows the integration guide: token, wallet, fees, card, funding and verified webhooks', async () => {
  const company = await newCompany(t);
  await t.ctx.db.update(companies).set({ state: 'Verified' }).where(eq(companies.id, company.companyId!));
  await fundWallet(t, company.companyId!, 100_000);
  const staff = await newStaff(t);

  const creds = await t.api('POST', '/third-party/clients', {
    token: company.token,
    body: { name: 'Volta Trading Ltd', redirect_uri: null, identifier: company.companyId },
  });
  expect(creds.status).toBe(201);
  const port = await freePort();
  expect(
    (
      await t.api('POST', '/third-party/callback-request', {
        token: company.token,
        body: { callback_url: `http://127.0.0.1:${port}/hooks`, active: true },
      })
    ).status,
  ).toBe(200);
  const details = (await t.api('GET', '/third-party/callback-details', { token: company.token })).body.data;
  expect(details.signing_secret).toMatch(/^whsec_/);

  const received: Array<{ type: string; data: Record<string, unknown> }> = [];
  const logs: string[] = [];
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...a: unknown[]) => Promise<any>;
  const run = new AsyncFunction(
    'BASE_URL',
    'CLIENT_ID',
    'CLIENT_SECRET',
    'WEBHOOK_SECRET',
    'WEBHOOK_PORT',
    'onWebhook',
    'console',
    '__import',
    `${examples()}\nreturn { cardId, walletId, receiver };`,
  );
  const out = await run(
    `${t.url}/api/v1`,
    creds.body.data.client_id,
    creds.body.data.client_secret,
    details.signing_secret,
    port,
    (e: { type: string; data: Record<string, unknown> }) => received.push(e),
    { log: (...a: unknown[]) => logs.push(a.join(' ')) },
    (m: string) => import(m),
  );
  try {
    expect(out.walletId).toBe(company.companyId);
    expect(logs.some((l) => l.startsWith('Card **** **** **** '))).toBe(true);
    expect(logs).toContain('Funded 25.00 USD, fees 0.88 USD, wallet paid 25.88 USD');

    const pay = (amount: string) =>
      t.api('POST', '/sandbox/authorizations', {
        token: staff.token,
        body: { card_id: out.cardId, amount, merchant: 'Jumia Ghana', mcc: '5311', country: 'GH', currency: 'USD' },
      });
    expect((await pay('10.00')).body.data.approved).toBe(true);
    // under the guide's spending limit of 500.00, over the balance (issue 32: the limit is checked before the balance)
    expect((await pay('400.00')).body.data.decline_reason).toBe('Insufficient funds on the card.');
    // Due events are taken oldest first, twenty at a time, and on PostgreSQL other test files' wait there too.
    while (received.length < 2 && (await deliverDue(t.ctx)) > 0);
    expect(received.map((e) => e.type)).toEqual(['card.authorization.approved', 'card.authorization.declined']);
    expect(received[1]!.data).toMatchObject({ decline_reason: 'Insufficient funds on the card.', amount: '400.00' });

    // The receiver of the guide turns away a body that was changed after signing.
    const tampered = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{}',
    });
    expect(tampered.status).toBe(400);
  } finally {
    await new Promise((r) => out.receiver.close(r));
  }
});
