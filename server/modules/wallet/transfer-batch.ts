import type { AppContext } from '../../context';
import type { Database } from '../../db/client';

/** One transfer as cw_transfer and cw_transfer_batch take it (migration 0025), named. */
export interface TransferArgs {
  from: string;
  to: string;
  amount: number;
  transfer_id: string;
  entry_from: string;
  entry_to: string;
  reference: string;
  description: string;
  meta: Record<string, unknown>;
  created_by: string;
  at: string;
  principal: string | null;
  key: string | null;
  request_hash: string | null;
  answer: string | null;
}

export interface Posted {
  outcome: 'ok' | 'key_taken';
  to_name: string | null;
  balance_before: string | null;
  balance_after: string | null;
  /** false when the batch told no one of it (no mail to send); cw_transfer alone does not say */
  notified?: boolean;
}

const SINGLE = `select outcome, to_name, balance_before::text, balance_after::text
  from cw_transfer($1::uuid, $2::uuid, $3::bigint, $4::uuid, $5::uuid, $6::uuid, $7, $8, $9::jsonb, $10::uuid, $11::timestamptz, $12, $13, $14, $15)`;
const BATCH = `select i, outcome, to_name, balance_before::text, balance_after::text, error, notified
  from cw_transfer_batch($1::jsonb)`;

/** Most transfers in one transaction: a batch holds its wallets' locks until it commits. */
const MAX_BATCH = 32;
/**
 * Batches with the database at once: the next one forms while this one is posted. One lane measured best
 * (docs/benchmarks.md, third round): a second one halves the batches, and each batch's fixed cost (its
 * statements, its commit) then takes the CPU the posting needs; between two hot wallets it also waits on
 * the other lane's locks.
 */
const LANES = 1;

interface Waiting {
  args: TransferArgs;
  resolve(p: Posted): void;
  reject(err: unknown): void;
}

const single = (database: Pick<Database, 'query'>, a: TransferArgs) =>
  database
    .query<Posted>('cw_transfer', SINGLE, [
      a.from,
      a.to,
      a.amount,
      a.transfer_id,
      a.entry_from,
      a.entry_to,
      a.reference,
      a.description,
      JSON.stringify(a.meta),
      a.created_by,
      a.at,
      a.principal,
      a.key,
      a.request_hash,
      a.answer,
    ])
    .then((rows) => rows[0]!);

/** The database reported the error itself (a SQLSTATE), so the transaction was rolled back: nothing of it stays. */
const rolledBack = (err: unknown) => {
  const e = err as { code?: unknown; severity?: unknown } | null;
  return typeof e?.severity === 'string' && /^[0-9A-Z]{5}$/.test(String(e.code ?? ''));
};

/**
 * Transfers that arrive while earlier ones are with the database are posted together, in one
 * transaction (cw_transfer_batch): one commit for all of them instead of one each. Alone, a transfer
 * is posted as before. What each caller gets is what cw_transfer would have answered or raised for it.
 */
export class TransferBatcher {
  private readonly waiting: Waiting[] = [];
  private busy = 0;

  constructor(
    private readonly database: Pick<Database, 'query'>,
    private readonly lanes = LANES,
  ) {}

  post(args: TransferArgs): Promise<Posted> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ args, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.busy < this.lanes && this.waiting.length) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.busy++;
      void this.run(batch).finally(() => {
        this.busy--;
        this.pump();
      });
    }
  }

  private async run(batch: Waiting[]) {
    if (batch.length === 1) return this.alone(batch[0]!);
    let rows: (Omit<Posted, 'outcome'> & { i: number; outcome: Posted['outcome'] | 'error'; error: string | null })[];
    try {
      rows = await this.database.query('cw_transfer_batch', BATCH, [JSON.stringify(batch.map((w) => w.args))]);
    } catch (err) {
      // Refused as a whole (a deadlock, a check at commit): each on its own, which says whose it was.
      if (rolledBack(err)) await Promise.all(batch.map((w) => this.alone(w)));
      // The connection failed: whether it committed is unknown, so nothing is posted again.
      else for (const w of batch) w.reject(err);
      return;
    }
    const retry: Waiting[] = [];
    const answered = new Set<Waiting>();
    for (const { i, error, ...posted } of rows) {
      const w = batch[i];
      if (!w) continue;
      answered.add(w);
      if (posted.outcome !== 'error') w.resolve(posted as Posted);
      // A refusal is the transfer's answer. Any other error row (cw_transfer_batch before migration 0025 ran each
      // transfer in a subtransaction and answered what undid it) is posted again on its own.
      else if (error?.startsWith('cw:')) w.reject(new Error(error));
      else retry.push(w);
    }
    for (const w of batch)
      if (!answered.has(w)) w.reject(new Error('the transfer batch gave no answer for this transfer'));
    await Promise.all(retry.map((w) => this.alone(w)));
  }

  private async alone(w: Waiting) {
    try {
      w.resolve(await single(this.database, w.args));
    } catch (err) {
      w.reject(err);
    }
  }
}

const batchers = new WeakMap<Database, TransferBatcher>();

/** Posts a transfer through cw_transfer, with the others this instance is posting at the same moment. */
export function postTransfer(ctx: AppContext, args: TransferArgs): Promise<Posted> {
  let b = batchers.get(ctx.database);
  if (!b) batchers.set(ctx.database, (b = new TransferBatcher(ctx.database)));
  return b.post(args);
}
