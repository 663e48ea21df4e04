import { createHash } from 'node:crypto';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, HTTP, invalidField } from '../../lib/http';
import { UPLOAD_LIMITS } from '../../lib/uploads';

/** The multipart form: its text fields and the CSV, read whole (the upload limit bounds it). */
export async function readCsvForm(
  req: FastifyRequest,
): Promise<{ fields: Record<string, string>; file: Buffer | null; name: string }> {
  if (!req.isMultipart())
    throw new AppError(
      HTTP.UNSUPPORTED_MEDIA_TYPE,
      'Send the form as multipart/form-data.',
      'Send the form as multipart/form-data.',
    );
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  let name = 'statement.csv';
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const buffer = await part.toBuffer();
      if (part.fieldname !== 'file') continue;
      if (part.file.truncated)
        throw invalidField('file', `The file is larger than ${UPLOAD_LIMITS.fileSize / 1024 / 1024} MB`);
      file = buffer;
      name = (part.filename || name).replace(/[^\w.\- ]/g, '_').slice(0, 200);
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw invalidField('file', `The file is larger than ${UPLOAD_LIMITS.fileSize / 1024 / 1024} MB`);
    throw e;
  }
  return { fields, file, name };
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
