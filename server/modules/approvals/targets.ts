import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type ApprovalAction, STAFF_ROLE_KEYS, type StaffRoleKey } from '@shared/contract';
import { centsText } from '@shared/vocabulary';
import type { AppContext } from '../../context';
import { cards, chainDeposits, companies, fees, topups, users } from '../../db/schema';
import { AppError, HTTP, notFound } from '../../lib/http';

const CARD_NOT_FOUND = 'The card was not found or is not yours.';

/** What a held-back request is about, in words for the Approvals screen. */
export interface Target {
  targetType: string;
  targetId: string;
  /** cents, for the actions that carry an amount */
  amount: number | null;
  summary: string;
}

type Body = Record<string, unknown>;
type Params = Record<string, string>;

/** A wallet's owner by name: an Individual (wallet id = user id) or a company. */
async function ownerName(ctx: AppContext, walletId: string): Promise<string> {
  const [c] = await ctx.db.select({ name: companies.companyName }).from(companies).where(eq(companies.id, walletId));
  if (c) return c.name;
  const [u] = await ctx.db
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.id, walletId));
  return u ? `${u.first} ${u.last}`.trim() : 'an unknown wallet';
}

async function card(ctx: AppContext, id: string) {
  const [c] = await ctx.db
    .select({ id: cards.id, walletId: cards.walletId, last4: cards.last4 })
    .from(cards)
    .where(eq(cards.id, id));
  if (!c) throw new AppError(HTTP.NOT_FOUND, CARD_NOT_FOUND, CARD_NOT_FOUND);
  return { ...c, owner: await ownerName(ctx, c.walletId) };
}

async function person(ctx: AppContext, id: string, missing: string) {
  const [u] = await ctx.db
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, id));
  if (!u) throw notFound(missing);
  return { name: `${u.first} ${u.last}`.trim(), email: u.email };
}

const usd = (cents: number) => centsText(cents, 'USD');
const usdt = (cents: number) => centsText(cents, 'USDT');

/**
 * Each action's target, amount and summary, read from the request after its validation. An unknown
 * target is the action's own 404, so a request that could never be performed is not held back.
 */
export const DESCRIBE: Record<ApprovalAction, (ctx: AppContext, body: Body, params: Params) => Promise<Target>> = {
  'card.fund': async (ctx, b) => {
    const c = await card(ctx, String(b.card));
    const amount = Number(b.amount);
    return {
      targetType: 'card',
      targetId: c.id,
      amount,
      summary: `Fund card •••• ${c.last4} of ${c.owner} with ${usd(amount)}`,
    };
  },
  'card.withdraw': async (ctx, b) => {
    const c = await card(ctx, String(b.card));
    const amount = Number(b.amount);
    return {
      targetType: 'card',
      targetId: c.id,
      amount,
      summary: `Withdraw ${usd(amount)} from card •••• ${c.last4} of ${c.owner}`,
    };
  },
  'card.delete': async (ctx, _b, p) => {
    const c = await card(ctx, p.id!);
    return { targetType: 'card', targetId: c.id, amount: null, summary: `Delete card •••• ${c.last4} of ${c.owner}` };
  },
  'topup.approve': async (ctx, b) => {
    const [t] = await ctx.db
      .select()
      .from(topups)
      .where(eq(topups.id, String(b.topup_id)));
    if (!t) throw notFound('The top-up');
    return {
      targetType: 'topup',
      targetId: t.id,
      amount: t.amount,
      summary: `Approve ${t.method} top-up ${t.reference} of ${usdt(t.amount)} for ${await ownerName(ctx, t.walletId)}`,
    };
  },
  'deposit.assign': async (ctx, b, p) => {
    const [d] = await ctx.db.select().from(chainDeposits).where(eq(chainDeposits.id, p.id!));
    if (!d) throw notFound('The deposit');
    return {
      targetType: 'chain-deposit',
      targetId: d.id,
      amount: d.amount,
      summary: `Assign the chain deposit of ${usdt(d.amount)} (${d.hash.slice(0, 12)}…) to the wallet of ${await ownerName(ctx, String(b.wallet_id))}`,
    };
  },
  'deposit.return': async (ctx, _b, p) => {
    const [d] = await ctx.db.select().from(chainDeposits).where(eq(chainDeposits.id, p.id!));
    if (!d) throw notFound('The deposit');
    return {
      targetType: 'chain-deposit',
      targetId: d.id,
      amount: d.amount,
      summary: `Return the chain deposit of ${usdt(d.amount)} (${d.hash.slice(0, 12)}…) to its sender`,
    };
  },
  'fee.change': async (ctx, b, p) => {
    const [f] = await ctx.db.select().from(fees).where(eq(fees.id, p.id!));
    if (!f) throw notFound('The fee');
    const value = Number(b.value);
    const shown = f.type === 'percentage' ? `${(value / 100).toFixed(2)}%` : usd(value);
    const forCompany = b.for === 'company' && b.for_id ? ` for ${await ownerName(ctx, String(b.for_id))}` : '';
    const state =
      b.status === undefined ? '' : [1, '1', 'Active'].includes(b.status as never) ? ', active' : ', inactive';
    return {
      targetType: 'fee',
      targetId: f.id,
      amount: null,
      summary: `Set the fee "${f.name}"${forCompany} to ${shown}${state}`,
    };
  },
  'admin.create': async (_ctx, b) => ({
    targetType: 'admin',
    targetId: String(b.email),
    amount: null,
    summary: `Add ${b.first_name} ${b.last_name} (${b.email}) as ${b.role}`,
  }),
  'admin.role_change': async (ctx, b, p) => {
    const who = await person(ctx, p.id!, 'The administrator');
    return {
      targetType: 'admin',
      targetId: p.id!,
      amount: null,
      summary: `Make ${who.name} (${who.email}) ${b.role}`,
    };
  },
  'two_factor.reset': async (ctx, _b, p) => {
    const who = await person(ctx, p.userId!, 'The user');
    return {
      targetType: 'user',
      targetId: p.userId!,
      amount: null,
      summary: `Reset the second factor of ${who.name} (${who.email})`,
    };
  },
  'customer.deactivate': async (ctx, _b, p) => {
    const [c] = await ctx.db.select({ name: companies.companyName }).from(companies).where(eq(companies.id, p.id!));
    if (c) return { targetType: 'company', targetId: p.id!, amount: null, summary: `Deactivate the company ${c.name}` };
    const who = await person(ctx, p.id!, 'The customer');
    return {
      targetType: 'individual',
      targetId: p.id!,
      amount: null,
      summary: `Deactivate the customer ${who.name} (${who.email})`,
    };
  },
};

export const paramsOf = (req: FastifyRequest) => (req.params ?? {}) as Params;

/** Whether an update of a staff member changes their role (only that needs approval). */
export async function roleChanges(ctx: AppContext, id: string, role: unknown): Promise<boolean> {
  if (typeof role !== 'string') return false;
  const [u] = await ctx.db.select({ role: users.role }).from(users).where(eq(users.id, id));
  return !!u && STAFF_ROLE_KEYS[role as StaffRoleKey] !== u.role;
}
