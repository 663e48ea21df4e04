import { describe, expect, it } from 'vitest';
import {
  APPROVAL_ACTIONS,
  APPROVAL_ACTION_NAMES,
  type ApprovalAction,
  OPERATION_PERMISSIONS,
  PERMISSIONS,
  ROLE_DESCRIPTIONS,
  ROLE_PERMISSIONS,
  STAFF_ROLES,
  STAFF_ROLE_KEYS,
  can,
  permissionsOf,
} from '@shared/contract';

/** The shape of the staff permissions table (issue 33). */

const WRITES = [
  'customers.manage',
  'verification.review',
  'cards.freeze',
  'cards.manage',
  'cards.money',
  'cards.simulate',
  'disputes.submit',
  'balances.monitor',
  'program.manage',
  'topups.decide',
  'deposits.manage',
  'reconciliation.run',
  'fees.manage',
  'momo.manage',
  'two_factor.reset',
  'two_factor.request',
  'staff.manage',
  'approvals.manage',
] as const;

describe('the permissions table', () => {
  it('gives every staff role, and only those, known permissions and a description', () => {
    expect(Object.keys(ROLE_PERMISSIONS).sort()).toEqual([...STAFF_ROLES].sort());
    for (const role of STAFF_ROLES) {
      for (const p of ROLE_PERMISSIONS[role]) expect(Object.keys(PERMISSIONS)).toContain(p);
      expect(ROLE_DESCRIPTIONS[role]).toBeTruthy();
    }
    expect(Object.values(STAFF_ROLE_KEYS).sort()).toEqual([...STAFF_ROLES].sort());
  });

  it('names every permission as either a read or a change', () => {
    const reads = ['customers.read', 'reports.read', 'staff.read', 'audit.read'];
    expect([...reads, ...WRITES].sort()).toEqual(Object.keys(PERMISSIONS).sort());
  });

  it('keeps the Admin as before: everything but staff, fees, settings, reconciliation runs and the audit trail', () => {
    for (const p of [
      'program.manage',
      'fees.manage',
      'momo.manage',
      'reconciliation.run',
      'staff.read',
      'staff.manage',
      'approvals.manage',
      'audit.read',
    ] as const)
      expect(can('Admin', p), p).toBe(false);
    for (const p of [
      'customers.manage',
      'verification.review',
      'cards.freeze',
      'cards.manage',
      'cards.money',
      'topups.decide',
      'deposits.manage',
      'two_factor.reset',
    ] as const)
      expect(can('Admin', p), p).toBe(true);
    expect(ROLE_PERMISSIONS['Super-Admin']).not.toContain('two_factor.request');
  });

  it('gives the Auditor no write permission, and Support no money', () => {
    for (const p of WRITES) expect(can('Auditor', p), p).toBe(false);
    for (const p of ['cards.money', 'topups.decide', 'deposits.manage', 'fees.manage'] as const)
      expect(can('Support', p), p).toBe(false);
    expect(can('Support', 'cards.freeze')).toBe(true);
  });

  it('grants customers and unknown roles nothing', () => {
    for (const role of ['Individual', 'Company-Admin', 'Company-User', undefined, 'root'])
      for (const p of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) expect(can(role, p)).toBe(false);
  });

  it('names only known permissions for operations and approval actions', () => {
    for (const [id, rule] of Object.entries(OPERATION_PERMISSIONS)) {
      if (typeof rule === 'string' && ['self', 'staff', 'public', 'customers'].includes(rule)) continue;
      expect(permissionsOf(rule).length, id).toBeGreaterThan(0);
    }
    for (const a of APPROVAL_ACTION_NAMES satisfies ApprovalAction[])
      expect(Object.keys(PERMISSIONS)).toContain(APPROVAL_ACTIONS[a]);
  });
});
