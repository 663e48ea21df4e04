import dayjs from 'dayjs';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { ApiError, messageOf } from '../api/errors';

/** Puts a 422's per-field messages on the form's fields; true when there were any. */
export function applyFieldErrors(form: FormInstance, e: unknown, rename: Record<string, string> = {}): boolean {
  if (!(e instanceof ApiError) || !e.errors) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true)));
  const fields = Object.entries(e.errors)
    .map(([name, errors]) => ({ name: rename[name] ?? name, errors }))
    .filter((f) => known.has(f.name));
  form.setFields(fields);
  return fields.length > 0;
}

/**
 * A failed call, said once: under the fields the answer names when the form has them, otherwise
 * by `say` (the screen's toast, modal or alert) with the server's message.
 */
export function sayFailure(
  form: FormInstance | undefined,
  e: unknown,
  say: (text: string) => void,
  fallback: string,
  rename: Record<string, string> = {},
): void {
  if (form && applyFieldErrors(form, e, rename)) {
    const first = form.getFieldsError().find((f) => f.errors.length);
    if (first) form.scrollToField(first.name, { block: 'center' });
    return;
  }
  say(messageOf(e, fallback));
}

/**
 * A Form's onValuesChange: a changed field drops the server's message. antd re-checks only the
 * fields that have rules, so without this a fixed value would keep its old error.
 */
export const clearErrorsOnChange = (form: FormInstance) => (changed: object) =>
  form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })));

/**
 * Form.Item's `required` for a Select, radio group or code input whose rules require a value:
 * antd would put aria-required on the control's wrapper (a div with no role), where ARIA does not
 * allow it; the rules still require the value and say so.
 */
export const NOT_ARIA_REQUIRED = false;

/** A DatePicker's value ↔ the API's YYYY-MM-DD day, so filter forms hold plain strings. */
export const DAY = 'YYYY-MM-DD';
export const dayPickerProps = {
  getValueProps: (v?: string) => ({ value: v ? dayjs(v, DAY) : undefined }),
  normalize: (d?: dayjs.Dayjs | null) => (d ? d.format(DAY) : undefined),
};

/** An email field's rules: required, then the shape of an address. */
export const emailRules = (required = 'Email is required'): Rule[] => [
  { required: true, message: required },
  { type: 'email', message: 'Enter a valid email address' },
];
