import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CUSTOMER_ROLES,
  EVIDENCE_FIELD,
  MAX_EVIDENCE_FILES,
  STAFF_ROLES,
  disputeBody,
  disputeListQuery,
  disputeNoteBody,
  idParams,
  isStaff,
  resolveDisputeBody,
} from '@shared/contract';
import * as R from '@shared/contract/responses';
import { DISPUTE_REASON_NAMES, DISPUTE_STATE_NAMES } from '@shared/vocabulary';
import type { AuthUser } from '../../context';
import { IssuerError } from '../../issuer/port';
import { cursorOf, sendCsv, type CsvColumn } from '../../lib/csv';
import { AppError, HTTP, invalidField, notFound, ok, parseOr422 } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { type ReceivedFile, readForm } from '../../lib/uploads';
import { authenticate } from '../../plugins/auth';
import { walletIdOf } from '../account/presenters';
import { performNow } from '../cards/outbox';
import {
  data,
  e,
  fails,
  json,
  BODY,
  CUSTOMER_OR_API,
  IDEMPOTENT,
  PATH,
  QUERY,
  SIGNED_IN_OR_API,
  STAFF,
} from '../../openapi/responses';
import { actorForCustomer } from './events';
import { submitDispute } from './issuer';
import { openDispute, withdrawDispute } from './open';
import { type DisputeFilters, disputeDetail, listDisputes } from './queries';
import type { ApiDispute } from '@shared/contract';

const COLUMNS: CsvColumn<ApiDispute>[] = [
  { header: 'Dispute', value: (d) => d.id },
  { header: 'Date Created', value: (d) => d.created_at },
  { header: 'Customer', value: (d) => d.owner_name },
  { header: 'Card', value: (d) => `${d.card_nickname}${d.card_last4 ? ` •••• ${d.card_last4}` : ''}` },
  { header: 'Merchant', value: (d) => d.merchant },
  { header: 'Payment Date', value: (d) => d.payment_date },
  { header: 'Payment Amount', value: (d) => d.payment_amount, numeric: true },
  { header: 'Reason', value: (d) => DISPUTE_REASON_NAMES[d.reason] },
  { header: 'Amount', value: (d) => d.amount, numeric: true },
  { header: 'State', value: (d) => DISPUTE_STATE_NAMES[d.state] },
  { header: 'Provisional Credit', value: (d) => d.provisional_credit, numeric: true },
  { header: 'Credited', value: (d) => d.credited, numeric: true },
  { header: 'Submitted At', value: (d) => d.submitted_at },
  { header: 'Resolved At', value: (d) => d.resolved_at },
];

/** A customer's wallet (a company's member without one reaches nothing). */
function ownWallet(me: AuthUser): string {
  const w = walletIdOf({ id: me.id, role: me.role, companyId: me.companyId });
  if (!w) throw notFound('The wallet');
  return w;
}

/** Card disputes (issue 36): opened by a card's owner, sent to the issuer by staff, decided by the issuer. */
export default async function disputeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Disputes'];
  const security = [{ bearer: [] }];
  const anyone = authenticate(ctx, { api: true });
  const customer = authenticate(ctx, { roles: CUSTOMER_ROLES, api: true });
  const staff = authenticate(ctx, { roles: STAFF_ROLES });
  const NOT_YOURS = e(404, 'The dispute was not found or is not yours.');

  /** A dispute the caller may read: a customer only their wallet's (404 otherwise), staff any. */
  async function readable(req: FastifyRequest, id: string) {
    const me = req.user!;
    const d = await disputeDetail(ctx.db, id);
    if (!d || (!isStaff(me.role) && d.wallet_id !== ownWallet(me))) throw notFound('The dispute');
    if (!isStaff(me.role)) d.history = d.history.map((h) => ({ ...h, actor: actorForCustomer(h.actor) }));
    return d;
  }

  app.post(
    '/card-transactions/:id/disputes',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        consumes: ['application/json', 'multipart/form-data'],
        params: idParams,
        operationId: 'createCardDispute',
        summary: 'Dispute a cleared card payment',
        description: `JSON \`{ reason, amount, explanation }\`, or the same fields as a multipart form with up to ${MAX_EVIDENCE_FILES} evidence files (JPEG, PNG or PDF, 5 MB each) in the field \`${EVIDENCE_FIELD}\`. The id is the payment (or one of its clearings). Only the card's owner (an Individual, a company's admin or its API client), within 120 days of the payment, for at most what cleared less refunds, one open dispute per payment.`,
        response: {
          201: data(R.apiDisputeDetail, 'The dispute, submitted: staff review it and send it to the card issuer.'),
          ...fails(
            CUSTOMER_OR_API,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, "Customers only; a company's user (not an admin) may not dispute."),
            e(404, 'The card transaction was not found or is not yours.'),
            e(
              409,
              'Not a cleared payment, older than 120 days, the card was deleted, or the payment already has an open dispute.',
            ),
            e(413, 'The form is too large: each file may be at most 5 MB.'),
            e(
              422,
              'A field is invalid, an evidence file is not JPEG, PNG or PDF, or the amount is more than can be disputed.',
            ),
          ),
        },
      },
    },
    async (req, reply) => {
      let fields: unknown = req.body;
      let files: ReceivedFile[] = [];
      if (req.isMultipart()) {
        const form = await readForm(req, [EVIDENCE_FIELD]);
        fields = form.fields;
        files = form.list;
        if (files.length > MAX_EVIDENCE_FILES)
          throw invalidField(EVIDENCE_FIELD, `Attach at most ${MAX_EVIDENCE_FILES} files`);
      }
      const body = parseOr422(disputeBody, fields ?? {});
      const id = await openDispute(ctx, req.user!, req.params.id, body, files, {
        ip: req.ip,
        id: req.id,
        url: req.url,
      });
      return reply.status(HTTP.CREATED).send(ok(await readable(req, id)));
    },
  );

  app.get(
    '/disputes',
    {
      onRequest: anyone,
      schema: {
        tags,
        security,
        querystring: disputeListQuery,
        operationId: 'listDisputes',
        summary: 'List card disputes',
        description:
          'A customer gets their own; staff get every one, with filters. `format=csv` downloads the whole filtered list.',
        response: {
          200: json(R.paged(R.apiDispute), 'A page of disputes, newest first.'),
          ...fails(SIGNED_IN_OR_API, QUERY),
        },
      },
    },
    async (req, reply) => {
      const me = req.user!;
      const q = req.query;
      const f: DisputeFilters = {
        walletId: isStaff(me.role) ? q.customer : ownWallet(me),
        state: q.state,
        reason: q.reason,
        cardId: q.card_id,
        transactionId: q.transaction_id,
        startDate: q.start_date,
        endDate: q.end_date,
      };
      if (q.format === 'csv')
        return sendCsv(reply, 'disputes', COLUMNS, async (after, limit) => {
          const { rows } = await listDisputes(ctx.reader(req), f, { limit, offset: 0, after });
          return {
            rows,
            next: cursorOf(
              rows,
              (d) => d.created_at,
              (d) => d.id,
            ),
          };
        });
      const r = await listDisputes(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );

  app.get(
    '/disputes/:id',
    {
      onRequest: anyone,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'getDispute',
        summary: 'Get a card dispute with its history',
        response: {
          200: data(R.apiDisputeDetail, 'The dispute and each state it reached: who, when, and a note.'),
          ...fails(SIGNED_IN_OR_API, PATH, NOT_YOURS),
        },
      },
    },
    async (req) => ok(await readable(req, req.params.id)),
  );

  app.post(
    '/disputes/:id/submit',
    {
      onRequest: staff,
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        params: idParams,
        body: disputeNoteBody,
        operationId: 'submitDispute',
        summary: 'Send a dispute to the card issuer (staff)',
        description:
          'submitted → under_review. With the program setting provisional_credit on, the amount is credited to the card at once and taken back if the dispute is lost.',
        response: {
          200: data(R.apiDisputeDetail, 'The dispute, under review at the card issuer.'),
          ...fails(
            STAFF,
            PATH,
            BODY,
            IDEMPOTENT,
            e(404, 'The dispute was not found.'),
            e(409, 'The dispute is not submitted.'),
          ),
        },
      },
    },
    async (req) => {
      const opId = await submitDispute(ctx, req.user!, req.params.id, req.body?.note);
      await performNow(ctx, opId);
      return ok(await readable(req, req.params.id));
    },
  );

  app.post(
    '/disputes/:id/withdraw',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        params: idParams,
        body: disputeNoteBody,
        operationId: 'withdrawDispute',
        summary: 'Withdraw an open card dispute',
        description:
          'The owner takes it back while it is submitted or under review; a provisional credit is taken back.',
        response: {
          200: data(R.apiDisputeDetail, 'The dispute, withdrawn.'),
          ...fails(
            CUSTOMER_OR_API,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, "Customers only; a company's user (not an admin) may not withdraw."),
            NOT_YOURS,
            e(409, 'The dispute is already decided or withdrawn.'),
          ),
        },
      },
    },
    async (req) => {
      const opId = await withdrawDispute(ctx, req.user!, req.params.id, req.body?.note, {
        ip: req.ip,
        id: req.id,
        url: req.url,
      });
      if (opId) await performNow(ctx, opId);
      return ok(await readable(req, req.params.id));
    },
  );

  app.post(
    '/sandbox/disputes/:id/resolve',
    {
      onRequest: staff,
      schema: {
        tags: ['Sandbox issuer'],
        security,
        params: idParams,
        body: resolveDisputeBody,
        operationId: 'resolveSandboxDispute',
        summary: 'Decide a dispute as the card issuer would (sandbox)',
        description:
          'won credits the card (unless a provisional credit already did); lost takes a provisional credit back.',
        response: {
          200: data(R.apiDisputeDetail, 'The dispute, won or lost.'),
          ...fails(
            STAFF,
            PATH,
            BODY,
            e(404, 'The dispute was not found.'),
            e(409, 'The dispute is not under review at the issuer.'),
          ),
        },
      },
    },
    async (req) => {
      await readable(req, req.params.id);
      try {
        await ctx.issuer.resolveDispute(req.params.id, req.body.outcome);
      } catch (err) {
        if (err instanceof IssuerError) throw new AppError(HTTP.CONFLICT, err.message);
        throw err;
      }
      return ok(await readable(req, req.params.id));
    },
  );
}
