import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, HTTP, type FieldErrors } from '../lib/http';
import { IdempotentReplay } from '../db/idempotency-keys';
import { sendReplay } from './idempotency';

const GENERIC_500 = 'Something went wrong on our side. Please try again in a moment.';

/** One error shape for every failure: { message, error }. A 500 never carries internals. */
export default fp(async (app) => {
  app.setErrorHandler((err: FastifyError | AppError | IdempotentReplay, req, reply) => {
    if (err instanceof IdempotentReplay) return sendReplay(req, reply, err.record, app.ctx.config.encryptionKey);
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.status).send({ message: err.message, error: err.error ?? err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      if (err.validationContext === 'params') {
        const message = 'The requested item was not found.';
        return reply.status(HTTP.NOT_FOUND).send({ message, error: message });
      }
      const fields: FieldErrors = {};
      for (const issue of err.validation) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        (fields[field] ??= []).push(issue.message ?? 'Invalid value');
      }
      const message = Object.values(fields)[0]?.[0] ?? 'The given data was invalid.';
      return reply.status(HTTP.UNPROCESSABLE).send({ message, error: fields });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : HTTP.INTERNAL;
    if (status < 500) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'This content type is not supported.'
            : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'The request is too large.'
              : err.message;
      return reply.status(status).send({ message, error: message });
    }
    req.log.error({ err }, 'request failed');
    return reply.status(HTTP.INTERNAL).send({ message: GENERIC_500, error: 'internal_error' });
  });
});
