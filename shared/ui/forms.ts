import dayjs from 'dayjs';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ZodType } from 'zod';
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

/** An empty input is a field left out: the schema's "X is required" rather than its format message. */
const asSent = (v: unknown) => (v === '' || v === null ? undefined : v);

/** What the contract says of a value: its first message, or null when it accepts it. */
function contractMessage(schema: ZodType, value: unknown): string | null {
  const r = schema.safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? 'Invalid value');
}

/**
 * A field's rule from its schema in the contract, so the form says on the field what the server
 * would answer, in the same words: the validator runs the schema; `required` (the mark, and
 * aria-required) follows from whether it accepts a field left out. `toWire` turns a control's value
 * (a date picker's day) into what the form sends. Only the schema's type is imported: a screen
 * without the contract carries no zod.
 */
export function contractRule(schema: ZodType, toWire: (v: never) => unknown = (v) => v): Rule {
  return {
    required: contractMessage(schema, undefined) !== null,
    validator: async (_, v) => {
      const sent = asSent(v);
      const message = contractMessage(schema, sent === undefined ? undefined : toWire(sent as never));
      if (message) throw new Error(message);
    },
  };
}

/**
 * The contract's "X is required" of a field, for a rule that checks only presence: where the
 * contract's other checks are the server's to say (the sign-up and invitation forms lead to an
 * error screen of their own), where a form words its own limits, or where one input stands for a
 * field (a full name for first_name).
 */
export function requiredMessage(schema: ZodType): string | undefined {
  return contractMessage(schema, undefined) ?? undefined;
}

/** A text field's presence rule in the contract's words (a blank input counts as empty). */
export const requiredRule = (schema: ZodType): Rule => ({
  required: true,
  whitespace: true,
  message: requiredMessage(schema),
});
