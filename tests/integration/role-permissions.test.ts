import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATION_PERMISSIONS,
  type OperationRule,
  STAFF_ROLES,
  type StaffRole,
  can,
  permissionsOf,
} from '@shared/contract';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { newCard, verifyAccount } from './support/cards';
import { fundWallet } from './support/money';

/**
 * Every operation of the OpenAPI document, called as each staff role with other accounts' real ids: a 403
 * exactly where OPERATION_PERMISSIONS says the role lacks the right, never where it holds it. The central
 * check runs before the body is read, so an allowed call with an empty body ends at validation (422) and
 * changes nothing; the few without a body (a flag, a delete) act on targets made for this file.
 */

type Op = { method: string; path: string; id: string; rule: OperationRule };

let t: TestApp;
let ops: Op[];
const staff = {} as Record<StaffRole, Actor>;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  const doc = (await (await fetch(`${t.url}/api/docs/json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      id: op.operationId,
      rule: OPERATION_PERMISSIONS[op.operationId]!,
    })),
  );
  for (const role of STAFF_ROLES) staff[role] = await newStaff(t, role);
  const ind = await newIndividual(t);
  const co = await newCompany(t);
  await verifyAccount(t, ind);
  await fundWallet(t, ind.id, 100_000);
  const card = (await newCard(t, ind)).card;
  const target = await newStaff(t, 'Support');
  const fees = await t.api('GET', '/fees?per_page=1', { token: staff['Super-Admin'].token });
  ids = {
    individual: ind.id,
    company: co.companyId!,
    companyUser: co.id,
    card: card.id,
    staff: target.id,
    fee: String(fees.body.data[0].id),
  };
});
afterAll(() => t.close());

/** A real id of another account for each path parameter, by what the path is about. */
function pathFor(op: Op): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'companyId') return ids.company!;
    if (name === 'userId') return op.path.includes('/company/') ? ids.companyUser! : ids.individual!;
    if (name === 'walletId') return ids.individual!;
    if (name === 'reference') return 'TOP-0000';
    if (op.path.startsWith('/api/v1/cards/')) return ids.card!;
    if (op.path.startsWith('/api/v1/account/admins/')) return ids.staff!;
    if (op.path.startsWith('/api/v1/companies/') || op.path.startsWith('/api/v1/company/')) return ids.company!;
    if (op.path.startsWith('/api/v1/individuals/')) return ids.individual!;
    if (op.path.startsWith('/api/v1/wallet/account-balance/')) return ids.individual!;
    if (op.path.startsWith('/api/v1/fees/')) return ids.fee!;
    return randomUUID();
  });
}

async function call(op: Op, as: Actor) {
  const res = await t.app.inject({
    method: op.method as 'GET',
    url: pathFor(op),
    headers: { authorization: `Bearer ${as.token}`, 'idempotency-key': randomUUID(), 'x-forwarded-for': as.ip },
    ...(['GET', 'DELETE'].includes(op.method) ? {} : { payload: {} }),
  });
  return { status: res.statusCode, body: res.json() as { message?: string } };
}

/** Whether the table refuses this role the operation. */
const refused = (rule: OperationRule, role: StaffRole) =>
  rule === 'customers' ||
  (typeof rule !== 'string' || !['self', 'staff', 'public'].includes(rule)
    ? !permissionsOf(rule).some((p) => can(role, p))
    : false);

describe('the permissions table, called as each staff role', () => {
  it('lists every operation of the document', () => {
    expect(ops.length).toBeGreaterThan(100);
    expect(ops.filter((o) => o.rule === undefined).map((o) => o.id)).toEqual([]);
  });

  it('answers 403 exactly where the table says the role lacks the right', async () => {
    const wrong: string[] = [];
    // Logging out ends the session the other calls need: last.
    const ordered = [...ops.filter((o) => o.id !== 'logOut'), ...ops.filter((o) => o.id === 'logOut')];
    for (const op of ordered) {
      if (op.rule === 'public') continue;
      for (const role of STAFF_ROLES) {
        const { status, body } = await call(op, staff[role]);
        const want = refused(op.rule, role);
        if ((status === 403) !== want)
          wrong.push(
            `${role} ${op.method} ${op.path} (${op.id}): ${status} ${body.message ?? ''}, want ${want ? '403' : 'not 403'}`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the Auditor', () => {
  const OWN = new Set(['logOut', 'changePassword', 'updateProfile']);

  it('holds no right to change anything but their own account', () => {
    const changes = ops.filter((o) => o.method !== 'GET' && o.rule !== 'public');
    const allowed = changes.filter((o) => !refused(o.rule, 'Auditor')).map((o) => o.id);
    for (const id of allowed) expect(OPERATION_PERMISSIONS[id], id).toBe('self');
  });

  it('is refused every change, own password, second factor, sessions and notifications aside', async () => {
    const auditor = await newStaff(t, 'Auditor');
    const changes = ops.filter((o) => o.method !== 'GET' && o.rule !== 'public' && o.rule !== 'self');
    expect(changes.length).toBeGreaterThan(40);
    for (const op of changes) {
      const res = await call(op, auditor);
      expect(res.status, `${op.method} ${op.path}`).toBe(403);
    }
    expect([...OWN].every((id) => OPERATION_PERMISSIONS[id] === 'self')).toBe(true);
  });

  it('gets a message naming the permission the role lacks', async () => {
    const auditor = await newStaff(t, 'Auditor');
    const res = await t.api('POST', '/cards/add-funds', { token: auditor.token, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your role (Auditor) does not allow this: it needs the permission cards.money.');
  });
});

describe('GET /roles', () => {
  it('lists the six roles with their permissions to any staff member, and to no customer', async () => {
    const caller = await newStaff(t, 'Support');
    const res = await t.api('GET', '/roles', { token: caller.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { role: string }) => r.role)).toEqual([
      'super-admin',
      'admin',
      'compliance',
      'finance',
      'support',
      'auditor',
    ]);
    const support = res.body.data.find((r: { role: string }) => r.role === 'support');
    expect(support.name).toBe('Support');
    expect(support.permissions.map((p: { permission: string }) => p.permission)).toEqual([
      'customers.read',
      'cards.freeze',
      'two_factor.request',
    ]);
    const customer = await newIndividual(t);
    expect((await t.api('GET', '/roles', { token: customer.token })).status).toBe(403);
  });
});
