import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CUSTOMER_ROLES, type Recipient, recipientParams, recipientWalletId } from '@shared/contract';
import * as R from '@shared/contract/responses';
import type { AppContext, AuthUser } from '../../context';
import { invalidField, notFound, ok, tooMany } from '../../lib/http';
import { FailureLimiter } from '../../lib/rate-limit';
import { CUSTOMER_OR_API, data, e, fails } from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import { walletOwner } from './access';

/** "Yaw Tetteh" → "Yaw T.": enough to recognise whom one pays, too little to learn a stranger's full name. */
export function shortName(first: string, last: string): string {
  const initial = [...last.trim()][0];
  return initial ? `${first.trim()} ${initial.toUpperCase()}.` : first.trim();
}

/**
 * Counted before the wallet is looked up, so ids that name nothing count too (guessing is what the limit
 * stops). The count lives in the database: every instance of the API sees the same one.
 */
async function countLookup(ctx: AppContext, me: AuthUser): Promise<void> {
  const seconds = ctx.config.rateLimit.windowSeconds;
  const limiter = new FailureLimiter(ctx.db, seconds, ctx.now);
  const now = ctx.now();
  const count = await limiter.hit(`recipient:user:${me.id}`, now);
  if (count <= ctx.config.rateLimit.recipientLookups) return;
  const w = seconds * 1000;
  const retry = Math.ceil((Math.floor(now.getTime() / w) * w + w - now.getTime()) / 1000);
  const minutes = Math.max(1, Math.ceil(retry / 60));
  throw tooMany(
    `Too many recipient lookups. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    retry,
  );
}

async function recipientOf(ctx: AppContext, me: AuthUser, walletId: string): Promise<Recipient> {
  const id = recipientWalletId.safeParse(walletId);
  if (!id.success) throw invalidField('wallet_id', id.error.issues[0]?.message ?? 'Enter a valid wallet id');
  await countLookup(ctx, me);
  const owner = await walletOwner(ctx.db, id.data);
  // A wallet that cannot receive is, for a payer, no wallet: the same 404 as an unknown id.
  if (!owner?.active) throw notFound('The wallet');
  if (owner.type === 'Company') return { name: owner.name, type: 'company' };
  return { name: shortName(owner.firstName ?? owner.name, owner.lastName ?? ''), type: 'individual' };
}

export default async function recipientRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.get(
    '/wallet/recipient/:walletId',
    {
      onRequest: authenticate(ctx, { roles: CUSTOMER_ROLES, api: true }),
      schema: {
        tags: ['Wallet'],
        security: [{ bearer: [] }],
        params: recipientParams,
        operationId: 'getTransferRecipient',
        summary: 'Whom a transfer to this wallet pays',
        description:
          'The name to confirm before a transfer: a person as first name and last initial ("Yaw T."), a company by its name.',
        response: {
          200: data(R.recipient, 'The wallet exists and can receive transfers.'),
          ...fails(
            CUSTOMER_OR_API,
            e(404, 'No wallet that can receive transfers has this id.'),
            e(422, 'The id is not a wallet id (error.wallet_id).'),
            e(429, 'Too many lookups by this user: wait for the Retry-After seconds.'),
          ),
        },
      },
    },
    async (req) => ok(await recipientOf(ctx, req.user!, req.params.walletId)),
  );
}
