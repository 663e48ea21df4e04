import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STAFF_ROLES,
  STATEMENT_SOURCES,
  idParams,
  resolveStatementLineBody,
  statementLineParams,
  statementLinesQuery,
  statementSourceBody,
  statementSourceParams,
  statementsQuery,
} from '@shared/contract';
import * as R from '@shared/contract/responses';
import { HTTP, ok } from '../../lib/http';
import { paged } from '../../lib/paging';
import { BODY, IDEMPOTENT, PATH, QUERY, STAFF, data, e, fails, json } from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import { getStatement, listStatements, resolveLine, statementLines, uploadStatement } from './service';
import { readingCtx } from '../../db/read-routing';
import { presentSource, saveSource, sourceConfig } from './sources';

const tags = ['Statements'];
const security = [{ bearer: [] }];

/**
 * Statement matching (issue 36): the outside parties' statements (card issuer, TronGrid, mobile money)
 * against the ledger. Staff with the reconciliation permission upload, map and resolve; staff who read
 * reports read.
 */
export default async function statementRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const staff = authenticate(ctx, { roles: STAFF_ROLES });

  app.get(
    '/statement-sources',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        operationId: 'listStatementSources',
        summary: "List the statement sources with each one's column mapping and matching rules (staff)",
        response: {
          200: data(z.array(R.apiStatementSource), 'Every source, the built-in defaults where unchanged.'),
          ...fails(STAFF),
        },
      },
    },
    async () => ok(await Promise.all(STATEMENT_SOURCES.map(async (s) => presentSource(s, await sourceConfig(ctx, s))))),
  );

  app.get(
    '/statement-sources/:source',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        params: statementSourceParams,
        operationId: 'getStatementSource',
        summary: "Get a statement source's column mapping and matching rules (staff)",
        response: {
          200: data(R.apiStatementSource, 'The mapping and rules in force.'),
          ...fails(STAFF, PATH, e(422, 'Unknown source.')),
        },
      },
    },
    async (req) => ok(presentSource(req.params.source, await sourceConfig(ctx, req.params.source))),
  );

  app.put(
    '/statement-sources/:source',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        params: statementSourceParams,
        body: statementSourceBody,
        operationId: 'updateStatementSource',
        summary: "Change a statement source's column mapping and matching rules (Finance, Super-Admin)",
        response: {
          200: data(R.apiStatementSource, 'Saved; later uploads use it.'),
          ...fails(STAFF, BODY, IDEMPOTENT),
        },
      },
    },
    async (req) => ok(await saveSource(ctx, req.params.source, req.body, req.user!.id)),
  );

  app.post(
    '/statements',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        operationId: 'uploadStatement',
        summary:
          'Upload a statement (CSV, field `file`, with `source` and optionally `start_date`, `end_date`, `rules`) and match it (Finance, Super-Admin)',
        response: {
          200: data(R.apiStatementUpload, 'The same file was uploaded before: its statement, unchanged.'),
          201: data(R.apiStatementUpload, 'Matched against the ledger of the period.'),
          ...fails(
            STAFF,
            IDEMPOTENT,
            e(413, 'The form is too large.'),
            e(415, 'Send the form as multipart/form-data.'),
            e(
              422,
              'A field is invalid, or the file does not read through the mapping: each message names the line and column.',
            ),
          ),
        },
      },
    },
    async (req, reply) => {
      const r = await uploadStatement(ctx, req, req.user!.id);
      req.auditDetails = { statement_id: r.statement.id, lines: r.statement.lines, existing: r.existing };
      return reply.status(r.existing ? HTTP.OK : HTTP.CREATED).send(ok({ ...r.statement, existing: r.existing }));
    },
  );

  app.get(
    '/statements',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        querystring: statementsQuery,
        operationId: 'listStatements',
        summary: 'List the uploaded statements, newest first (staff)',
        response: {
          200: json(R.paged(R.apiStatement), 'A page of statements with their counts.'),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req) => {
      const r = await listStatements(readingCtx(ctx, req), req.query);
      return paged(req, r.rows, r.total, req.query);
    },
  );

  app.get(
    '/statements/:id',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'getStatement',
        summary: 'Get a statement with its counts (staff)',
        response: { 200: data(R.apiStatement, 'The statement and its counts.'), ...fails(STAFF, PATH) },
      },
    },
    async (req) => ok(await getStatement(readingCtx(ctx, req), req.params.id)),
  );

  app.get(
    '/statements/:id/lines',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        params: idParams,
        querystring: statementLinesQuery,
        operationId: 'listStatementLines',
        summary: "List a statement's result: matched, missing on our side, missing on theirs (staff)",
        response: {
          200: json(R.paged(R.apiStatementLine), "A page of the result, in the file's order, then the ledger's."),
          ...fails(STAFF, PATH, QUERY),
        },
      },
    },
    async (req) => {
      const r = await statementLines(readingCtx(ctx, req), req.params.id, req.query);
      return paged(req, r.rows, r.total, req.query);
    },
  );

  app.post(
    '/statements/:id/lines/:lineId/resolve',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        params: statementLineParams,
        body: resolveStatementLineBody,
        operationId: 'resolveStatementLine',
        summary: 'Resolve an unmatched item with a note (Finance, Super-Admin)',
        response: {
          200: data(R.apiStatementLine, 'Resolved.'),
          ...fails(STAFF, PATH, BODY, IDEMPOTENT, e(409, 'The line is matched, or already resolved.')),
        },
      },
    },
    async (req) => ok(await resolveLine(ctx, req.params.id, req.params.lineId, req.body.note, req.user!.id)),
  );
}
