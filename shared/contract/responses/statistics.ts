import { z } from 'zod';
import { money } from './blocks';
import { topupMethod } from './wallet';

export const statistics = z
  .strictObject({
    total_wallet_balance: money,
    total_card_balance: money,
    total_fees_amount: money,
    total_topups_fees: money,
    total_card_balance_general: money,
    total_card_balance_media: money,
    total_card_balance_tokencard: money,
    total_topups_amount: money,
    total_topups: z.number().int(),
    total_transactions: z.number().int(),
    total_transactions_amount: money,
    total_cards: z.number().int(),
    total_activated_cards: z.number().int(),
    total_deactivated_cards: z.number().int(),
    total_deleted_cards: z.number().int(),
    total_basic_cards: z.number().int(),
    total_premium_cards: z.number().int(),
    total_general_cards: z.number().int(),
    total_media_cards: z.number().int(),
    total_company_cards: z.number().int(),
    total_individual_cards: z.number().int(),
    total_maintenance: z.number().int(),
    total_maintenance_amount: money,
  })
  .meta({ id: 'Statistics', description: 'Back-office figures for the date range; balances as of its end.' });

const period = z.string().describe('The first day of the period, YYYY-MM-DD (UTC)');

export const statisticsSeries = z
  .strictObject({
    interval: z.enum(['day', 'week', 'month']),
    topups: z.array(z.strictObject({ period, method: topupMethod, count: z.number().int(), amount: money })),
    card_transactions: z.array(z.strictObject({ period, status: z.string(), count: z.number().int(), amount: money })),
    fees: z.array(z.strictObject({ period, kind: z.string(), amount: money })),
  })
  .meta({ id: 'StatisticsSeries', description: 'Activity per period, for charts.' });

const waiting = (what: string) => z.number().int().optional().describe(what);

/** Each count is there only when the caller's role may open its list. */
export const attention = z
  .strictObject({
    verifications_individuals: waiting('Individual verifications (KYC) waiting for a decision'),
    verifications_companies: waiting('Company verifications (KYB) waiting for a decision'),
    topups_to_decide: waiting('Top-ups staff can approve or deny now (hash provided, or momo confirmed)'),
    chain_deposits_unassigned: waiting('Tron deposits no top-up took, waiting to be assigned or returned'),
    flagged_cards: waiting('Flagged cards, as the Flagged Cards list shows them'),
    reconciliation_drift: waiting("Cards whose ledger balance the last reconciliation found apart from the issuer's"),
    approvals_pending: waiting('Staff requests waiting for a second person (maker-checker)'),
    disputes_to_send: waiting('Card disputes customers opened, waiting to be sent to the card issuer'),
  })
  .meta({ id: 'Attention', description: 'What waits for staff: counts that open the filtered lists.' });
