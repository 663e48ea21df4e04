import { Form } from 'antd';
import PhoneInput, { type PhoneInputProps, type PhoneNumber } from 'antd-phone-input';
import type { Rule } from 'antd/es/form';
import { useLayoutEffect, useRef } from 'react';

/** The phone input used throughout: a country picker, Ghana by default. Form.Item's value/onChange pass through. */
export function PhoneField(props: PhoneInputProps) {
  const box = useRef<HTMLSpanElement>(null);
  // The library's country picker has no name of its own; the field's label names the number input.
  useLayoutEffect(() => {
    box.current?.querySelector('.ant-select input')?.setAttribute('aria-label', 'Country code');
  });
  return (
    <span ref={box} style={{ display: 'block' }}>
      <PhoneInput
        country="gh"
        enableSearch
        distinct
        preferredCountries={['gh', 'ng', 'ke', 'gb', 'us']}
        placeholder="1 (702) 123-4567"
        {...props}
      />
    </span>
  );
}

/** The widget's value is an object; the API wants "+<digits>". */
export function phoneToString(v: PhoneNumber | string | undefined | null): string {
  if (!v) return '';
  if (typeof v === 'string') return v.trim();
  const digits = `${v.countryCode ?? ''}${v.areaCode ?? ''}${v.phoneNumber ?? ''}`;
  return digits ? `+${digits}` : '';
}

/** Nothing but the country code typed yet counts as empty. */
const isEmptyPhone = (v: PhoneNumber | string | undefined | null) =>
  !v || (typeof v === 'string' ? v.trim() === '' : !v.areaCode && !v.phoneNumber);

/** Form rules: required, then a minimum length of the full number. */
export function phoneRules(required: string, invalid: string, minLength: number): Rule[] {
  return [
    {
      validator: async (_, v) => {
        if (isEmptyPhone(v)) throw new Error(required);
        if (phoneToString(v).length < minLength) throw new Error(invalid);
      },
    },
  ];
}

/** The two phone fields of the forms: a person's and a company's, with their words and lengths. */
const PHONES = {
  person: {
    name: 'phone_number',
    label: 'Phone Number',
    required: 'Phone Number is required',
    invalid: 'Valid Phone Number is required',
    minLength: 10,
  },
  company: {
    name: 'company_phone',
    label: 'Company Phone',
    required: 'Company Phone Number is required',
    invalid: 'Valid Company Phone Number is required',
    minLength: 12,
  },
} as const;

type PhoneItemProps = { of: keyof typeof PHONES } & Partial<{ invalid: string; minLength: number }>;

/** A phone number's form field: the picker, required, and long enough in full. */
export function PhoneItem({ of, ...override }: PhoneItemProps) {
  const p = { ...PHONES[of], ...override };
  return (
    <Form.Item name={p.name} label={p.label} rules={phoneRules(p.required, p.invalid, p.minLength)}>
      <PhoneField />
    </Form.Item>
  );
}
