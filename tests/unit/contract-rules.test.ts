import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import {
  createAdminBody,
  createCompanyUserBody,
  kybFields,
  kycFields,
  registerCompanyBody,
  requiredString,
  transferBody,
  updateCompanyBody,
  updateIndividualBody,
} from '@shared/contract';
import { contractRule, requiredMessage } from '@shared/ui/contractRules';

/** What a form shows for a value under the rule: its message, or null when the value passes. */
async function shown(rule: RuleObject, value: unknown): Promise<string | null> {
  try {
    await rule.validator!(rule, value, () => undefined);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('contractRule', () => {
  const name = contractRule(requiredString('Name is required', 5)) as RuleObject;

  it('is required (the mark, aria-required) when the schema refuses a field left out', () => {
    expect(name.required).toBe(true);
    expect((contractRule(transferBody.shape.reference) as RuleObject).required).toBe(false);
  });

  it("says the schema's first message, an empty input counting as a field left out", async () => {
    expect(await shown(name, undefined)).toBe('Name is required');
    expect(await shown(name, '')).toBe('Name is required');
    expect(await shown(name, '   ')).toBe('Name is required');
    expect(await shown(name, 'Abenaa')).toBe('Must be at most 5 characters');
    expect(await shown(name, 'Abena')).toBeNull();
    const wallet = contractRule(transferBody.shape.wallet_id) as RuleObject;
    expect(await shown(wallet, '')).toBe('Wallet is required');
    // a blank input is one left out, as the forms' `whitespace: true` said, though this schema does not trim
    expect(await shown(wallet, '   ')).toBe('Wallet is required');
    expect(await shown(wallet, 'not-an-id')).toBe('Enter a valid wallet id');
  });

  it("checks what the form sends: a control's value through toWire", async () => {
    const day = contractRule(kybFields.shape.incorporation_date, (d: { text: string }) => d.text) as RuleObject;
    expect(await shown(day, { text: '2015-06-30' })).toBeNull();
    expect(await shown(day, { text: '30/06/2015' })).toBe(
      'Company Incorporation Date must be a date such as 2015-06-30',
    );
    expect(await shown(day, null)).toBe('Company Incorporation Date is required');
  });
});

describe("the forms' messages, from the contract", () => {
  it('are the texts the specs give', () => {
    // customer-portal.md §5 (KYC, KYB, add user, company sign-up); back-office.md §5 (add admin, profile).
    const said = [
      kycFields.shape.id_type.unwrap(),
      kycFields.shape.issued_id,
      kybFields.shape.registered_name,
      kybFields.shape.company_profile,
      kybFields.shape.tax_number,
      kybFields.shape.incorporation_date,
      createCompanyUserBody.shape.first_name,
      createCompanyUserBody.shape.email,
      createCompanyUserBody.shape.role,
      createAdminBody.shape.first_name,
      createAdminBody.shape.email,
      createAdminBody.shape.role,
      registerCompanyBody.shape.company_name,
      registerCompanyBody.shape.company_website,
      registerCompanyBody.shape.company_email,
      updateIndividualBody.shape.first_name,
      updateCompanyBody.shape.company_website,
    ].map(requiredMessage);
    expect(said).toEqual([
      'Identification type is required',
      'Issued id details is required',
      'Registered Business name is required',
      'Company profile is required',
      'Company Tax ID is required',
      'Company Incorporation Date is required',
      'Full Name is required',
      'Email is required',
      'Permission is required',
      'Full Name is required',
      'Email is required',
      'Permission is required',
      'Company Name is required',
      'Company Website is required',
      'Company Email is required',
      'First Name is required',
      'Company Website is required',
    ]);
  });
});
