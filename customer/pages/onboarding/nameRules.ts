import type { Rule } from 'antd/es/form';
import { PASSWORD_POLICY_MESSAGE, meetsPasswordPolicy } from '@shared/contract';

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

export const passwordRules: Rule[] = [
  { required: true, message: 'Password is required' },
  {
    validator: async (_, v: string | undefined) => {
      if (v && !meetsPasswordPolicy(v)) throw new Error(PASSWORD_POLICY_MESSAGE);
    },
  },
];
