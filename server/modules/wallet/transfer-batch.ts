import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { type Claimed, MAIL_LEASE_MS } from '../notifications/mail';
import { metrics } from '../../lib/metrics';

/** One transfer as cw_transfer_batch takes it (server/db/sql/transfers.sql), named. */
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
  /** the receivers' mail, claimed for this instance to send (when the batch was given a lease) */
  mails: Claimed[] | null;
}

const BATCH = `select i, outcome, to_name, balance_before::text, balance_after::text, error, mails
  from cw_transfer_batch($1::jsonb, $2::timestamptz)`;

/** Most transfers in one transaction: a batch holds its wallets' locks until it commits. */
const MAX_BATCH = 32;
/**
 * Batches with the database at once: the next one forms while this one is posted. One lane measured best
 * (docs/history/benchmarks-to-2026-11-28.md, third round): a second one halves the batches, and each batch's fixed cost (its
 * statements, its commit) then takes the CPU the posting needs; between two hot wallets it also waits on
 * the other lane's locks.
 */
const LANES = 1;

interface Waiting {
  args: TransferArgs;
  resolve(p: Posted): void;
  reject(err: unknown): void;
}

type Row = Omit<Posted, 'outcome'> & { i: number; outcome: Posted['outcome'] | 'error'; error: string | null };

/** The database reported the error itself (a SQLSTATE), so the transaction was rolled back: nothing of it stays. */
const rolledBack = (err: unknown) => {
  const e = err as { code?: unknown; severity?: unknown } | null;
  return typeof e?.severity === 'string' && /^[0-9A-Z]{5}$/.test(String(e.code ?? ''));
};

export interface BatcherOptions {
  lanes?: number;
  /** until when the receivers' mail is claimed for this instance (null: left pending for the mail job and kicks) */
  mailLease?: () => Date | null;
}

/**
 * Transfers that arrive while earlier ones are with the database are posted together, in one transaction
 * (cw_transfer_batch, server/db/sql/transfers.sql): one commit for all of them instead of one each. Alone, a transfer is a batch
 * of one. What each caller gets is its own row: posted, its key taken, or its refusal ('cw:<reason>') as an error.
 */
export class TransferBatcher {
  private readonly waiting: Waiting[] = [];
  private busy = 0;
  private readonly lanes: number;
  private readonly mailLease: () => Date | null;

  constructor(
    private readonly database: Pick<Database, 'query'>,
    options: BatcherOptions = {},
  ) {
    this.lanes = options.lanes ?? LANES;
    this.mailLease = options.mailLease ?? (() => null);
  }

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
      void this.run(batch);
    }
  }

  private async run(batch: Waiting[]) {
    const result = await this.attempt(batch);
    if ('err' in result && rolledBack(result.err) && batch.length > 1) {
      // Refused as a whole (a deadlock, a check at commit): each on its own, which says whose it was.
      const alone = await Promise.all(batch.map((w) => this.attempt([w])));
      this.free();
      process.nextTick(() => {
        for (const [k, w] of batch.entries()) answer([w], alone[k]!);
      });
      return;
    }
    // The lane is given the next batch before this one's callers go on: their answers are written to their
    // sockets while the database already works, instead of the database waiting for those writes. The pool sends
    // a query from a process.nextTick, after every promise continuation queued before it, so the callers go on
    // from a nextTick queued after it: otherwise each caller's answer was written before the next batch was sent.
    this.free();
    process.nextTick(answer, batch, result);
  }

  private free() {
    this.busy--;
    this.pump();
  }

  private async attempt(batch: Waiting[]): Promise<Result> {
    try {
      return {
        rows: await this.database.query<Row>('cw_transfer_batch', BATCH, [
          JSON.stringify(batch.map((w) => w.args)),
          this.mailLease()?.toISOString() ?? null,
        ]),
      };
    } catch (err) {
      return { err };
    }
  }
}

type Result = { rows: Row[] } | { err: unknown };

/** Each caller its own row; an error (alone, or the connection failed: whether it committed is unknown) to all. */
function answer(batch: Waiting[], result: Result) {
  if ('err' in result) {
    for (const w of batch) w.reject(result.err);
    return;
  }
  const answered = new Set<Waiting>();
  for (const { i, error, ...posted } of result.rows) {
    const w = batch[i];
    if (!w) continue;
    answered.add(w);
    if (posted.outcome === 'error') w.reject(new Error(error ?? 'cw:unknown'));
    else {
      if (posted.outcome === 'ok') metrics.ledgerTransfer('transfer');
      w.resolve(posted as Posted);
    }
  }
  for (const w of batch)
    if (!answered.has(w)) w.reject(new Error('the transfer batch gave no answer for this transfer'));
}

const batchers = new WeakMap<Database, TransferBatcher>();

/** Posts a transfer through cw_transfer_batch, with the others this instance is posting at the same moment. */
export function postTransfer(ctx: AppContext, args: TransferArgs): Promise<Posted> {
  let b = batchers.get(ctx.database);
  if (!b)
    batchers.set(
      ctx.database,
      (b = new TransferBatcher(ctx.database, { mailLease: () => new Date(ctx.now().getTime() + MAIL_LEASE_MS) })),
    );
  return b.post(args);
}
