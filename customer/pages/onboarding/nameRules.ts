import type { Rule } from 'antd/es/form';
import { PASSWORD_POLICY_MESSAGE, meetsPasswordPolicy, registerIndividualBody } from '@shared/contract';
import { requiredMessage } from '@shared/ui/contractRules';

/** The single full-name input: required, and both words at least 3 characters. */
export const fullNameRules: Rule[] = [
  { required: true, whitespace: true, message: 'Full Name is required' },
  {
    validator: async (_, v: string | undefined) => {
      if (!v?.trim()) return;
      const [first = '', second = ''] = v.trim().split(/\s+/);
      if (first.length < 3 || second.length < 3) throw new Error('First Name or Last Name must be at least 3');
    },
  },
];

/** The contract's own password rule says more (its length), but here the server says that, on the error screen. */
export const passwordRules: Rule[] = [
  { required: true, message: requiredMessage(registerIndividualBody.shape.password) },
  {
    validator: async (_, v: string | undefined) => {
      if (v && !meetsPasswordPolicy(v)) throw new Error(PASSWORD_POLICY_MESSAGE);
    },
  },
];
