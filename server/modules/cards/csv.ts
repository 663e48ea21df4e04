import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client';
import { cursorOf, sendCsv } from '../../lib/csv';
import { CARD_COLUMNS } from '../reports/csv-columns';
import { type CardFilters, listCards } from './queries';

/** A card list as CSV, streamed in keyset batches (staff see the issuer tokens); `db` is ctx.reader(req). */
export const sendCardsCsv = (db: Db, reply: FastifyReply, f: CardFilters, asStaff: boolean) =>
  sendCsv(reply, 'cards', CARD_COLUMNS, async (after, limit) => {
    const { rows } = await listCards(db, f, { limit, offset: 0, after }, asStaff);
    return {
      rows,
      next: cursorOf(
        rows,
        (c) => c.created_at,
        (c) => c.id,
      ),
    };
  });
