import type { FastifyReply } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { cursorOf, sendCsv } from '../../lib/csv';
import { TOPUP_COLUMNS } from '../reports/csv-columns';
import { type TopupFilters, listTopups } from './queries';

/** Top-ups as CSV, in keyset batches over (last modified, id). */
export function sendTopupsCsv(reply: FastifyReply, db: DbOrTx, f: TopupFilters, filename = 'wallet-top-ups') {
  return sendCsv(reply, filename, TOPUP_COLUMNS, async (after, limit) => {
    const { rows } = await listTopups(db, f, { limit, offset: 0, after });
    return {
      rows,
      next: cursorOf(
        rows,
        (r) => r.updated_at,
        (r) => r.id,
      ),
    };
  });
}
