import { z } from 'zod';
import { CARD_TYPES, DECLINE_CODES, DISPUTE_REASONS, DISPUTE_STATES } from '@shared/contract/lists';
import * as R from '@shared/contract/responses';

/**
 * The card events the API POSTs to a company's callback URL (server/modules/integrations/webhooks.ts
 * `emitEvent`, with server/modules/cards/events.ts `cardEventData`), as OpenAPI 3.1 `webhooks`.
 * Each body is `{ type, timestamp, data }`; `data` is the card (never its number) plus what the event
 * reports. Receivers should ignore fields they do not know: new ones may be added.
 */

type JsonSchema = Record<string, unknown>;

const json = (schema: z.ZodType): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }) as JsonSchema;
  return rest;
};

const cardEventData = z.looseObject({
  card_id: R.id.describe('The card'),
  nickname: z.string(),
  last4: z
    .string()
    .regex(/^\d{4}$/)
    .describe('The last four digits of the card number'),
  brand: z.enum(['Visa', 'Mastercard', 'Tokenised Cards']),
  type: z.enum(CARD_TYPES),
  available_balance: R.money.describe('The card\'s available balance after the event, e.g. "12.50"'),
});

const payment = {
  transaction_id: R.id.describe('The card transaction (as in GET /reports/view-cards-transactions)'),
  amount: R.money,
  currency: z.string().describe('ISO 4217, e.g. "USD"'),
  merchant: z.string(),
  country: z.string().describe('The merchant’s country, e.g. "GH"'),
  mcc: z.string().nullable().describe('The merchant’s category code, four digits, e.g. "5812"'),
};
const reason = { reason: z.string().describe('Why staff did it') };
/** A step of an authorisation's life: transaction_id is the authorisation, step_id the step's own row. */
const step = {
  ...payment,
  transaction_id: R.id.describe('The authorisation'),
  step_id: R.id.describe('The row this step recorded'),
  held: R.money.describe('What the authorisation still holds after the step'),
};

/** A card dispute (issue 36), as every card.dispute.* event carries it. */
const dispute = {
  dispute_id: R.id.describe('The dispute (GET /disputes/{id})'),
  transaction_id: R.id.describe('The payment disputed'),
  merchant: z.string(),
  reason: z.enum(DISPUTE_REASONS),
  amount: R.money.describe('The amount disputed'),
  state: z.enum(DISPUTE_STATES),
  provisional_credit: R.money.describe('What the card was credited when the dispute went to the issuer'),
  credited: R.money.describe('What the card holds of the dispute after the event'),
};

/** What each event adds to the card data, and when it is sent. */
const EVENTS: Record<string, { summary: string; extra: z.ZodRawShape }> = {
  'card.authorization.approved': {
    summary: 'A payment on a card was approved (perhaps partially) and its amount is held',
    extra: {
      ...payment,
      requested_amount: R.money.describe('What the merchant asked; more than amount on a partial approval'),
    },
  },
  'card.authorization.declined': {
    summary: 'A payment on a card was declined',
    extra: {
      ...payment,
      decline_reason: z.string().describe('e.g. "Insufficient funds on the card."'),
      decline_code: z.enum(DECLINE_CODES),
    },
  },
  'card.authorization.incremented': {
    summary: 'The merchant added to a pending payment’s hold (amount: what it added)',
    extra: { ...step, authorized_amount: R.money.describe('What the authorisation now approves in total') },
  },
  'card.authorization.partially_reversed': {
    summary: 'The merchant released part of a hold (amount: what it released); the rest is still held',
    extra: step,
  },
  'card.authorization.reversed': {
    summary: 'A held payment was reversed: the amount is available again',
    extra: { ...payment, step_id: step.step_id.optional(), held: step.held.optional() },
  },
  'card.authorization.cleared': {
    summary:
      'The merchant cleared (captured) an amount of a payment and left it open (a part), or cleared after it expired or was reversed (late)',
    extra: { ...step, released: R.money.describe('What the clearing gave back from the hold (when it closed it)') },
  },
  'card.authorization.settled': {
    summary: 'A payment was cleared and closed (amount: the final clearing; the rest of the hold is released)',
    extra: { ...payment, step_id: step.step_id.optional(), held: step.held.optional(), released: R.money.optional() },
  },
  'card.authorization.expired': {
    summary: 'A hold never cleared expired: the amount (what it held) is available again',
    extra: { ...payment, step_id: step.step_id },
  },
  'card.authorization.refunded': {
    summary: 'A merchant refunded money to the card',
    extra: {
      ...payment,
      transaction_id: R.id.describe('The refund'),
      original_transaction_id: R.id.nullable().describe('The payment refunded, when the merchant named one'),
    },
  },
  'card.authorization.force_posted': {
    summary: 'A merchant charged the card without authorisation (the card may now be in debt)',
    extra: { ...payment, transaction_id: R.id.describe('The charge') },
  },
  'card.dispute.created': { summary: 'The card’s owner disputed a payment (state submitted)', extra: dispute },
  'card.dispute.submitted': {
    summary:
      'Staff sent a dispute to the card issuer (state under_review; a provisional credit, if any, is on the card)',
    extra: dispute,
  },
  'card.dispute.updated': {
    summary:
      'The card issuer did not accept a dispute as sent: back in state submitted for staff to send again; a provisional credit, if any, was taken back',
    extra: dispute,
  },
  'card.dispute.won': {
    summary: 'The issuer decided a dispute for the cardholder: the amount is on the card',
    extra: dispute,
  },
  'card.dispute.lost': {
    summary: 'The issuer decided a dispute against the cardholder: a provisional credit was taken back',
    extra: dispute,
  },
  'card.dispute.withdrawn': {
    summary: 'The card’s owner withdrew a dispute: a provisional credit was taken back',
    extra: dispute,
  },
  'card.frozen': { summary: 'A premium card was frozen', extra: { state: z.literal('Deactivated') } },
  'card.unfrozen': { summary: 'A premium card was unfrozen', extra: { state: z.literal('Active') } },
  'card.flagged': { summary: 'Staff flagged a card', extra: reason },
  'card.unflagged': { summary: 'Staff unflagged a card', extra: reason },
  'card.suspended': { summary: 'Staff suspended a card', extra: reason },
  'card.unsuspended': { summary: 'Staff unsuspended a card', extra: reason },
  'card.deleted': {
    summary: 'A card was deleted, by its owner or by staff',
    extra: {
      reason: z.string(),
      remaining: R.money.describe('The balance the card held when it ended'),
      outcome: z
        .enum(['refund', 'forfeit'])
        .describe('refund: the balance returned to the wallet (premium); forfeit: it was forfeited (basic)'),
    },
  },
  'card.terminated': {
    summary: 'The platform ended a basic card (balance under the minimum, or repeated declines)',
    extra: {
      reason: z.string(),
      remaining: R.money.describe('The balance the card held when it ended'),
      outcome: z.enum(['refund', 'forfeit']),
    },
  },
};

const operationId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}`;

const SIGNATURE = [
  ['webhook-id', "The event's id (`msg_…`), the same on every retry: use it to ignore duplicates."],
  ['webhook-timestamp', 'Seconds since the epoch.'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256>` of `"{webhook-id}.{webhook-timestamp}.{body}"`, keyed with the base64-decoded part of the signing secret after `whsec_` (Standard Webhooks).',
  ],
].map(([name, description]) => ({ in: 'header', name, required: true, description, schema: { type: 'string' } }));

/** The components the webhooks refer to. */
export const webhookSchemas = (): Record<string, JsonSchema> => ({
  CardEventData: {
    ...json(cardEventData),
    description: 'The card an event is about (never its number), with its available balance after the event.',
  },
});

/** The `webhooks` object of the document: one POST per event type. */
export function cardWebhooks(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([type, { summary, extra }]) => {
      const body = {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        properties: {
          type: { const: type },
          timestamp: json(R.timestamp),
          data: { allOf: [{ $ref: '#/components/schemas/CardEventData' }, json(z.looseObject(extra))] },
        },
      };
      const post = {
        operationId: operationId(type),
        summary,
        tags: ['Webhooks'],
        description:
          'Sent to the callback URL set in API Settings. Answer 2xx quickly; anything else is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), and 410 turns the callback off.',
        parameters: SIGNATURE,
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: { '2XX': { description: 'Received.' }, '410': { description: 'Gone: the callback is turned off.' } },
      };
      return [type, { post }];
    }),
  );
}
