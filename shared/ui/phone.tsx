import { Form } from 'antd';
import PhoneInput, { type PhoneInputProps, type PhoneNumber } from 'antd-phone-input';
import type { Rule } from 'antd/es/form';
import { useLayoutEffect, useRef } from 'react';
import type { ZodType } from 'zod';
import { updateCompanyBody, updateIndividualBody } from '../contract';
import { formatPhone, isTrunkZeroCode, toE164 } from '../phone';
import { contractRule } from './contractRules';

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
        onKeyDown={(e) => {
          // "024…" under +233: the 0 is what one dials at home, not part of the number, and the widget's
          // mask, counting it, would cut the last digit.
          if (e.key === '0' && trunkZeroNext(e.currentTarget.value)) e.preventDefault();
          props.onKeyDown?.(e);
        }}
        onPaste={(e) => {
          const text = e.clipboardData.getData('text');
          if (/^\s*0/.test(text) && trunkZeroNext(e.currentTarget.value)) {
            e.preventDefault();
            document.execCommand('insertText', false, text.replace(/^\s*0/, ''));
          }
          props.onPaste?.(e);
        }}
      />
    </span>
  );
}

/** Whether the input holds only a country code whose countries dial a trunk 0 at home. */
function trunkZeroNext(input: string): boolean {
  return isTrunkZeroCode(input.replace(/\D/g, ''));
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

/** What the form sends: "+<digits>", or nothing when only the country code is there. */
const phoneSent = (v: PhoneNumber | string | undefined | null) => (isEmptyPhone(v) ? undefined : phoneToString(v));

/** A phone field's rule: the contract's, on the number as it is sent. */
export const phoneRule = (schema: ZodType): Rule => contractRule(schema, phoneSent);

/** The two phone fields of the forms: a person's and a company's, with their schemas. */
const PHONES = {
  person: { name: 'phone_number', label: 'Phone Number', schema: updateIndividualBody.shape.phone_number },
  company: { name: 'company_phone', label: 'Company Phone', schema: updateCompanyBody.shape.company_phone },
} as const;

/** A phone number's form field: the picker, the contract's rule, and the number read back as it will be kept. */
export function PhoneItem({ of }: { of: keyof typeof PHONES }) {
  const p = PHONES[of];
  const typed = Form.useWatch(p.name);
  const e164 = isEmptyPhone(typed) ? null : toE164(phoneToString(typed));
  return (
    <Form.Item name={p.name} label={p.label} rules={[phoneRule(p.schema)]} extra={e164 ? formatPhone(e164) : undefined}>
      <PhoneField />
    </Form.Item>
  );
}
