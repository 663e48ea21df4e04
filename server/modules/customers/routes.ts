import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { STAFF_ROLES, accountStatusBody, customerListQuery, idParams } from '@shared/contract';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import type { DbOrTx } from '../../db/client';
import { authenticate } from '../../plugins/auth';
import { type CustomerFilters, listCompanies, listIndividuals } from './queries';
import { setCompanyActive, setIndividualActive } from './service';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { ApiCompanyCustomer, ApiCustomerRow, ApiIndividualCustomer } from '@shared/contract';
import { e, fails, json, text, BODY, IDEMPOTENT, PATH, QUERY, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';

const COMMON: CsvColumn<ApiCustomerRow>[] = [
  { header: 'State', value: (c) => c.state },
  { header: 'Master Wallet (USDT)', value: (c) => c.master_wallet, numeric: true },
  { header: 'Cards', value: (c) => c.cards_count },
  { header: 'Active Cards', value: (c) => c.active_cards_count },
  { header: 'Created', value: (c) => c.created_at },
];
const INDIVIDUAL_COLUMNS: CsvColumn<ApiIndividualCustomer>[] = [
  { header: 'Id', value: (c) => c.id },
  { header: 'First Name', value: (c) => c.first_name },
  { header: 'Last Name', value: (c) => c.last_name },
  { header: 'Email', value: (c) => c.email },
  { header: 'Phone Number', value: (c) => c.phone_number },
  ...COMMON,
];
const COMPANY_COLUMNS: CsvColumn<ApiCompanyCustomer>[] = [
  { header: 'Id', value: (c) => c.id },
  { header: 'Company Name', value: (c) => c.company_name },
  { header: 'Company Email', value: (c) => c.company_email },
  { header: 'Company Phone', value: (c) => c.company_phone },
  { header: 'Website', value: (c) => c.company_website },
  { header: 'Users', value: (c) => c.users_count },
  ...COMMON,
];

/** What tells the two customer lists apart. */
interface CustomerList<T> {
  path: string;
  operationId: string;
  summary: string;
  ok: string;
  item: ZodType<T>;
  /** the CSV export's file name */
  file: string;
  columns: CsvColumn<T>[];
  list(db: DbOrTx, f: CustomerFilters, page: { limit: number; offset: number }): Promise<{ rows: T[]; total: number }>;
}

const INDIVIDUALS: CustomerList<ApiIndividualCustomer> = {
  path: '/individuals',
  operationId: 'listIndividuals',
  summary: 'List Individuals (staff)',
  ok: 'A page of Individuals, newest first.',
  item: R.apiIndividualCustomer,
  file: 'individuals',
  columns: INDIVIDUAL_COLUMNS,
  list: listIndividuals,
};

const COMPANIES: CustomerList<ApiCompanyCustomer> = {
  path: '/companies',
  operationId: 'listCompanies',
  summary: 'List companies (staff)',
  ok: 'A page of companies, newest first.',
  item: R.apiCompanyCustomer,
  file: 'companies',
  columns: COMPANY_COLUMNS,
  list: listCompanies,
};

/** The customer database: lists for staff, deactivation and reactivation. */
export default async function customerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Customers'];
  const security = [{ bearer: [] }];

  /** One definition for both lists: they differ only in what `CustomerList` names. */
  function listRoute<T>(l: CustomerList<T>) {
    app.get(
      l.path,
      {
        onRequest,
        schema: {
          tags,
          security,
          querystring: customerListQuery,
          operationId: l.operationId,
          summary: l.summary,
          response: {
            200: json(R.paged(l.item), l.ok),
            ...fails(STAFF, QUERY),
          },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const f = { state: q.state, name: q.name, startDate: q.start_date, endDate: q.end_date };
        if (q.format === 'csv')
          return sendCsv(
            reply,
            l.file,
            l.columns,
            byOffset((p) => l.list(ctx.reader(req), f, p)),
          );
        const r = await l.list(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
        return paged(req, r.rows, r.total, q);
      },
    );
  }
  listRoute(INDIVIDUALS);
  listRoute(COMPANIES);

  app.delete(
    '/individuals/:id',
    {
      onRequest,
      ...approvalGate(ctx, 'customer.deactivate'),
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'deactivateIndividual',
        summary: "Deactivate an Individual's account (staff)",
        response: {
          202: heldOr(text('Deactivated; every session of the customer ended.', 'User Account deactivated.')),
          ...fails(
            STAFF,
            PATH,
            IDEMPOTENT,
            e(404, 'The customer was not found.'),
            e(409, 'The account is already deactivated.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await setIndividualActive(ctx, req.params.id, false))),
  );
  app.delete(
    '/companies/:id',
    {
      onRequest,
      ...approvalGate(ctx, 'customer.deactivate'),
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'deactivateCompany',
        summary: "Deactivate a company's account (staff)",
        response: {
          202: heldOr(text("Deactivated; every session of the company's users ended.", 'Company Account deactivated.')),
          ...fails(
            STAFF,
            PATH,
            IDEMPOTENT,
            e(404, 'The company was not found.'),
            e(409, 'The company is already deactivated.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await setCompanyActive(ctx, req.params.id, false))),
  );
  app.post(
    '/individuals/status',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: accountStatusBody,
        operationId: 'reactivateIndividual',
        summary: "Reactivate an Individual's account (staff)",
        response: {
          200: text('Reactivated.', 'User Account reactivated.'),
          ...fails(
            STAFF,
            BODY,
            IDEMPOTENT,
            e(404, 'The customer was not found.'),
            e(409, 'The account is already active.'),
          ),
        },
      },
    },
    async (req) => ok(await setIndividualActive(ctx, req.body.account, true)),
  );
  app.post(
    '/company/status',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: accountStatusBody,
        operationId: 'reactivateCompany',
        summary: "Reactivate a company's account (staff)",
        response: {
          200: text('Reactivated.', 'Company Account reactivated.'),
          ...fails(
            STAFF,
            BODY,
            IDEMPOTENT,
            e(404, 'The company was not found.'),
            e(409, 'The company is already active.'),
          ),
        },
      },
    },
    async (req) => ok(await setCompanyActive(ctx, req.body.account, true)),
  );
}
