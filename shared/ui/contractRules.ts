import type { Rule } from 'antd/es/form';
import type { ZodType } from 'zod';

// Apart from ./forms, which the login screen loads: that screen carries no zod.

/**
 * An empty or blank input is a field left out: the schema's "X is required" rather than its format message, as the
 * forms' `whitespace: true` rules said before.
 */
const asSent = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

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
