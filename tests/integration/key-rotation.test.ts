import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { checkEncryptionKey, keyCheckValue } from '../../server/db/key-check';
import { keyId } from '../../server/lib/crypto';
import { deliverDue, emitEvent, sign } from '../../server/modules/integrations/webhooks';
import type { TestApp } from './support/app';
import { type Actor, logIn, newCompany, newIndividual, totpCode } from './support/actors';
import { generateCredentials, startReceiver } from './support/api';
import { newCard, verifyAccount } from './support/cards';
import { fundWallet } from './support/money';
import { type OpsTarget, appWithKeyCheck, cli, emptyTarget } from './support/ops';

/**
 * ENCRYPTION_KEY_PREVIOUS and `npm run cli -- rotate-key`: values sealed under key A read while B is the key,
 * the rotation (killed once midway, then run again) re-seals all of them, and B alone then does everything.
 */

const A = Buffer.alloc(32, 0xa1);
const B = Buffer.alloc(32, 0xb2);
// A Buffer of its own per configuration: the previous keys ride on the key's Buffer.
const keyB = () => Buffer.from(B);
const online = !!inject('postgresUrl');
const targets: OpsTarget[] = [];
afterAll(async () => {
  for (const target of targets) await target.drop();
});

interface Seen {
  card: { card_cvv?: string };
  webhookSecret: string;
  decisionSecret: string;
  replay: unknown;
}

async function look(t: TestApp, a: Actor, company: Actor, cardId: string, transfer: () => Promise<unknown>) {
  const card = await t.api('GET', `/cards/${cardId}`, { token: a.token });
  const hook = await t.api('GET', '/third-party/callback-details', { token: company.token });
  const decision = await t.api('GET', '/third-party/authorization-decision', { token: company.token });
  return {
    card: card.body.data.details,
    webhookSecret: hook.body.data.signing_secret,
    decisionSecret: decision.body.data.signing_secret,
    replay: await transfer(),
  } satisfies Seen;
}

/** Every value in a text column of the database that is sealed under another key than `key`. */
async function sealedUnderOtherKeys(t: TestApp, key: Buffer): Promise<string[]> {
  const columns = await t.ctx.database.query<{ table_name: string; column_name: string }>(
    'ops_text_columns',
    `select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'text'`,
    [],
  );
  const found: string[] = [];
  for (const c of columns) {
    const [row] = await t.ctx.database.query(
      `ops_scan_${c.table_name}_${c.column_name}`,
      `select 1 from "${c.table_name}" where "${c.column_name}" ~ '^v1\\.[^.]+\\.[^.]+\\.[^.]*(\\.[^.]+)?$'
         and coalesce(split_part("${c.column_name}", '.', 5), '') <> $1 limit 1`,
      [keyId(key)],
    );
    if (row) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}

describe('key rotation', () => {
  it('reads A under B with A previous, rotates (killed midway, rerun), then works with B alone', async () => {
    const target = await emptyTarget();
    targets.push(target);
    let t = await appWithKeyCheck(target, { encryptionKey: Buffer.from(A) });
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await verifyAccount(t, a);
    await fundWallet(t, a.id, 500_000);
    const card = await newCard(t, a, { card_amount: '50.00' });
    const company = await newCompany(t);
    await verifyAccount(t, company);
    await generateCredentials(t, company);
    const receiver = await startReceiver(t);
    try {
      expect(
        (
          await t.api('POST', '/third-party/callback-request', {
            token: company.token,
            body: { callback_url: receiver.url, active: true },
          })
        ).status,
      ).toBe(200);
      const decision = { url: 'http://127.0.0.1:9/decide', timeout_ms: 500, on_timeout: 'decline' };
      expect(
        (await t.api('PUT', '/third-party/authorization-decision', { token: company.token, body: decision })).status,
      ).toBe(200);
      const key = randomUUID();
      const transfer = async () => {
        const res = await t.api('POST', '/wallet/transfer', {
          token: a.token,
          body: { wallet_id: b.id, amount: '3.00', reference: 'rotation' },
          idempotencyKey: key,
        });
        expect(res.status).toBe(200);
        return res.body;
      };
      // a recovery code issued under A: its hash cannot be re-sealed, its secret can
      t.clock.advance(30_000); // a TOTP step not used yet
      const codes = await t.api('POST', '/account/recovery-codes', {
        token: a.token,
        body: { password: a.password, code: await totpCode(t, a.secret) },
      });
      expect(codes.status).toBe(200);
      const before = await look(t, a, company, card.card.id, transfer);
      expect(before.card.card_cvv).toMatch(/^\d{3,4}$/);
      await t.close();

      // B is the key, A still opens: everything reads, a sign-in's 2FA works.
      const during = { encryptionKey: keyB(), previousEncryptionKeys: [Buffer.from(A)] };
      t = await appWithKeyCheck(target, during);
      t.clock.advance(5 * 60_000);
      a.token = (await logIn(t, a.email, a.password, a.secret)).token;
      company.token = (await logIn(t, company.email, company.password, company.secret)).token;
      expect(await look(t, a, company, card.card.id, transfer)).toEqual(before);
      // On PostgreSQL the rotation runs online: this instance (B, A previous) keeps working and writing meanwhile.
      if (!online) await t.close();

      const env = { ...target.env, ENCRYPTION_KEY: B.toString('hex'), ENCRYPTION_KEY_PREVIOUS: A.toString('hex') };
      const killed = await cli(['rotate-key', '--batch', '1'], { ...env, FAILPOINTS: 'rotate-key.after-batch=exit@2' });
      expect(killed.code).toBeNull(); // SIGKILL
      const rotating = cli(['rotate-key', '--batch', '1'], env);
      if (online) {
        t.clock.advance(60_000);
        company.token = (await logIn(t, company.email, company.password, company.secret)).token;
        const during = await t.api('POST', '/wallet/transfer', {
          token: a.token,
          body: { wallet_id: b.id, amount: '1.00', reference: 'during rotation' },
          idempotencyKey: randomUUID(),
        });
        expect(during.status).toBe(200);
        expect(await look(t, a, company, card.card.id, transfer)).toEqual(before);
      }
      const rotated = await rotating;
      if (online) await t.close();
      expect(rotated.err).toBe('');
      expect(rotated.out).toContain('Key check moved to ENCRYPTION_KEY');
      const rerun = await cli(['rotate-key'], env);
      expect(rerun.out).toContain('Key check already names ENCRYPTION_KEY');
      expect(rerun.out).not.toMatch(/[1-9]\d* re-sealed/);

      // B alone.
      t = await appWithKeyCheck(target, { encryptionKey: keyB() });
      expect(await sealedUnderOtherKeys(t, B)).toEqual([]);
      const [check] = await t.ctx.database.query<{ check_value: string }>(
        'ops_check',
        'select check_value from key_checks where id = 1',
        [],
      );
      expect(check!.check_value).toBe(keyCheckValue(B));
      t.clock.advance(10 * 60_000);
      a.token = (await logIn(t, a.email, a.password, a.secret)).token;
      company.token = (await logIn(t, company.email, company.password, company.secret)).token;
      expect(await look(t, a, company, card.card.id, transfer)).toEqual(before);
      const challenge = await t.api('POST', '/account/login', { body: { email: a.email, password: a.password } });
      const recovered = await t.api('POST', '/account/login-recover', {
        body: { token: challenge.body.data.token, recovery_code: codes.body.data.recovery_codes[0] },
      });
      expect(recovered.status).toBe(200);
      // a webhook is signed with the secret B opened
      await emitEvent(t.ctx.db, company.companyId, 'test.rotation', { ok: true }, t.ctx.now());
      expect(await deliverDue(t.ctx)).toBeGreaterThan(0);
      const sent = receiver.received.at(-1)!;
      const h = sent.headers as Record<string, string>;
      expect(h['webhook-signature']).toBe(
        sign(before.webhookSecret, h['webhook-id']!, Number(h['webhook-timestamp']), sent.body),
      );
      await t.close();

      // the retired key is refused at start
      t = await target.app({ encryptionKey: Buffer.from(A) });
      await expect(checkEncryptionKey(t.ctx.database, t.ctx.config.encryptionKey)).rejects.toThrow(/retired/);
      await t.close();

      // after a leak: a new recovery-code secret voids the unused codes; the authenticator still signs in
      const leak = await cli(['rotate-key', '--new-recovery-secret'], {
        ...target.env,
        ENCRYPTION_KEY: B.toString('hex'),
      });
      expect(leak.out).toContain('unused recovery codes are void');
      t = await appWithKeyCheck(target, { encryptionKey: keyB() });
      t.clock.advance(15 * 60_000);
      const again = await t.api('POST', '/account/login', { body: { email: a.email, password: a.password } });
      const voided = await t.api('POST', '/account/login-recover', {
        body: { token: again.body.data.token, recovery_code: codes.body.data.recovery_codes[1] },
      });
      expect(voided.status).toBe(401);
      expect((await logIn(t, a.email, a.password, a.secret)).token).toBeTruthy();
      await t.close();
    } finally {
      await receiver.close();
    }
  }, 300_000);
});
