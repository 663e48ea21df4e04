import type { z } from 'zod';
import type { sandboxChainTransferBody } from '@shared/contract';
import type { AppContext } from '../../context';
import { MICRO_PER_CENT } from '../../chain/port';
import { AppError, HTTP } from '../../lib/http';

/** Someone sends USDT on the sandbox chain; without confirmations it is settled at once. */
export async function sendSandboxDeposit(
  ctx: AppContext,
  body: z.output<typeof sandboxChainTransferBody>,
  by: string | null,
) {
  if (!ctx.sandboxChain) throw new AppError(HTTP.NOT_FOUND, 'The sandbox chain is not in use (CHAIN=trongrid).');
  return ctx.sandboxChain.send({
    to: body.to,
    amountMicro: body.amount * MICRO_PER_CENT,
    confirmations: body.confirmations ?? ctx.config.chain.minConfirmations,
    createdBy: by,
  });
}
