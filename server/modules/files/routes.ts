import { createReadStream, existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams, isStaff } from '@shared/contract';
import { uploads } from '../../db/schema';
import { notFound } from '../../lib/http';
import { uploadPath } from '../../lib/uploads';
import { authenticate } from '../../plugins/auth';
import { walletIdOf } from '../account/presenters';
import { e, fails, file, PATH, SIGNED_IN } from '../../openapi/responses';

/** A stored document, for its own account and for staff only, always as a download. */
export default async function fileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.get(
    '/files/:id',
    {
      onRequest: authenticate(ctx),
      schema: {
        tags: ['Verification'],
        security: [{ bearer: [] }],
        params: idParams,
        operationId: 'downloadFile',
        summary: 'Download a verification document',
        response: {
          200: file('The document, as an attachment (Content-Disposition), for its own account and staff only.'),
          ...fails(SIGNED_IN, PATH, e(404, 'The file was not found or is not yours.')),
        },
      },
    },
    async (req, reply) => {
      const me = req.user!;
      const [f] = await ctx.db.select().from(uploads).where(eq(uploads.id, req.params.id));
      const mine = f && f.accountId === walletIdOf({ id: me.id, role: me.role, companyId: me.companyId });
      if (!f || (!mine && !isStaff(me.role))) throw notFound('The file');
      const file = uploadPath(ctx, f.storageName);
      if (!existsSync(file)) throw notFound('The file');
      return reply
        .header('content-type', f.contentType)
        .header('content-disposition', `attachment; filename="${f.originalName.replace(/"/g, '')}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(createReadStream(file));
    },
  );
}
