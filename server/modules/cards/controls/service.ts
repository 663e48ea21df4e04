import type {
  ApiCardControls,
  ApiProgramControls,
  ApprovalInterval,
  CardControlsBody,
  ProgramControlsBody,
} from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../../context';
import { cardControls, programControls } from '../../../db/schema';
import { conflict, forbidden } from '../../../lib/http';
import { cardForCaller } from '../access';
import { type CardControlsRow, type ProgramControlsRow, controlsOfCard, programControlsRow } from './queries';

function toApiCardControls(cardId: string, row: CardControlsRow | null): ApiCardControls {
  return {
    card_id: cardId,
    allowed_categories: row?.allowedCategories ?? [],
    blocked_categories: row?.blockedCategories ?? [],
    allowed_countries: row?.allowedCountries ?? [],
    blocked_countries: row?.blockedCountries ?? [],
    per_transaction_limit: row?.perTransactionLimit == null ? null : formatMoney(row.perTransactionLimit),
    max_approvals:
      row?.maxApprovalsCount != null && row.maxApprovalsInterval
        ? { count: row.maxApprovalsCount, interval: row.maxApprovalsInterval as ApprovalInterval }
        : null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

const toApiProgramControls = (row: ProgramControlsRow | null): ApiProgramControls => ({
  blocked_categories: row?.blockedCategories ?? [],
  blocked_countries: row?.blockedCountries ?? [],
  provisional_credit: row?.provisionalCredit ?? false,
  updated_at: row?.updatedAt?.toISOString() ?? null,
});

/** Anyone who may see the card may read its controls (a company's users too: they pay with its cards). */
export async function getCardControls(ctx: AppContext, me: AuthUser, cardId: string) {
  const card = await cardForCaller(ctx, me, cardId);
  return toApiCardControls(card.id, await controlsOfCard(ctx.db, card.id));
}

/** The owner (an Individual, a company's admin or its API credentials) and staff set them; a deleted card keeps its last. */
export async function setCardControls(ctx: AppContext, me: AuthUser, cardId: string, body: CardControlsBody) {
  const card = await cardForCaller(ctx, me, cardId);
  if (me.role === 'Company-User') throw forbidden("Only the company's admins may change a card's controls.");
  if (card.deletedAt) throw conflict('The card has been deleted.');
  const values = {
    allowedCategories: body.allowed_categories,
    blockedCategories: body.blocked_categories,
    allowedCountries: body.allowed_countries,
    blockedCountries: body.blocked_countries,
    perTransactionLimit: body.per_transaction_limit,
    maxApprovalsCount: body.max_approvals?.count ?? null,
    maxApprovalsInterval: body.max_approvals?.interval ?? null,
    updatedAt: ctx.now(),
    updatedBy: me.id,
  };
  const [row] = await ctx.db
    .insert(cardControls)
    .values({ cardId: card.id, ...values })
    .onConflictDoUpdate({ target: cardControls.cardId, set: values })
    .returning();
  return toApiCardControls(card.id, row ?? null);
}

export async function getProgramControls(ctx: AppContext) {
  return toApiProgramControls(await programControlsRow(ctx.db));
}

export async function setProgramControls(ctx: AppContext, me: AuthUser, body: ProgramControlsBody) {
  const values = {
    blockedCategories: body.blocked_categories,
    blockedCountries: body.blocked_countries,
    ...(body.provisional_credit === undefined ? {} : { provisionalCredit: body.provisional_credit }),
    updatedAt: ctx.now(),
    updatedBy: me.id,
  };
  const [row] = await ctx.db
    .insert(programControls)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: programControls.id, set: values })
    .returning();
  return toApiProgramControls(row ?? null);
}
