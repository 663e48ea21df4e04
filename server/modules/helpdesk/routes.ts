import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { helpdeskBody } from '@shared/contract';
import { helpdeskMessages } from '../../db/schema';
import { AppError, HTTP, ok } from '../../lib/http';
import { FailureLimiter } from '../../lib/rate-limit';
import { authenticate } from '../../plugins/auth';
import { helpdeskMail } from '../../mail/templates';
import { data, e, fails, BODY, IDEMPOTENT } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

const PER_ADDRESS = 10;

/** Help Desk and Contact: stored, then mailed to support; the answer says which happened. */
export default async function helpdeskRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/account/helpdesk',
    {
      onRequest: authenticate(ctx, { optional: true }),
      schema: {
        tags: ['Help'],
        body: helpdeskBody,
        operationId: 'sendHelpdeskMessage',
        summary: 'Send a message to support',
        response: {
          201: data(R.helpdeskSent, 'The message was stored and mailed to support.'),
          ...fails(
            BODY,
            IDEMPOTENT,
            e(403, 'An API access token was sent: this endpoint is for the portals only.'),
            e(429, 'Too many messages from this address: wait for the Retry-After seconds.'),
            e(503, 'The message was saved but could not be mailed to support; try again later.'),
          ),
        },
      },
    },
    async (req, reply) => {
      const limiter = new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
      const key = `helpdesk:ip:${req.ip}`;
      await limiter.assertUnder([{ key, max: PER_ADDRESS }]);
      await limiter.hit(key);
      const id = crypto.randomUUID();
      await ctx.db
        .insert(helpdeskMessages)
        .values({ id, userId: req.user?.id ?? null, ...req.body, createdAt: ctx.now() });
      try {
        await ctx.mailer.send(helpdeskMail(ctx.config.supportEmail, req.body));
      } catch (err) {
        req.log.error({ err }, 'could not mail help desk message');
        throw new AppError(
          HTTP.SERVICE_UNAVAILABLE,
          'We saved your message but could not pass it to support right now. Please try again later or write to ' +
            ctx.config.supportEmail,
        );
      }
      await ctx.db.update(helpdeskMessages).set({ deliveredAt: ctx.now() }).where(eq(helpdeskMessages.id, id));
      return reply.status(HTTP.CREATED).send(ok({ id, message: 'Message sent' }));
    },
  );
}
