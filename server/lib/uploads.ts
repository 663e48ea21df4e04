import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/client';
import { uploads } from '../db/schema';
import { randomToken } from './crypto';
import { AppError, HTTP, type FieldErrors, invalid } from './http';
import { nulFields } from './nul';
import { type AllowedType, sniffType } from './upload-types';

const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOAD_LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 6, fields: 20, fieldSize: 10_000 };

export interface ReceivedFile {
  field: string;
  filename: string;
  buffer: Buffer;
  type: AllowedType;
}

/**
 * Reads a multipart form: text fields, and the named file fields checked by content and size.
 * Every problem is a 422 on its field; nothing is stored here.
 */
export async function readForm(
  req: FastifyRequest,
  fileFields: string[],
): Promise<{ fields: Record<string, string>; files: Record<string, ReceivedFile>; list: ReceivedFile[] }> {
  if (!req.isMultipart()) {
    throw new AppError(
      HTTP.UNSUPPORTED_MEDIA_TYPE,
      'Send the form as multipart/form-data.',
      'Send the form as multipart/form-data.',
    );
  }
  const fields: Record<string, string> = {};
  const files: Record<string, ReceivedFile> = {};
  // every file in order, several under one field name too (a dispute's evidence)
  const list: ReceivedFile[] = [];
  const errors: FieldErrors = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const buffer = await part.toBuffer();
      if (!fileFields.includes(part.fieldname)) continue;
      if (part.file.truncated) {
        errors[part.fieldname] = ['The file is larger than 5 MB'];
        continue;
      }
      if (buffer.length === 0) continue;
      const type = sniffType(buffer);
      if (!type) {
        errors[part.fieldname] = ['Upload a JPEG, PNG or PDF file'];
        continue;
      }
      files[part.fieldname] = { field: part.fieldname, filename: safeName(part.filename), buffer, type };
      list.push(files[part.fieldname]!);
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (
      code === 'FST_REQ_FILE_TOO_LARGE' ||
      code === 'FST_FILES_LIMIT' ||
      code === 'FST_PARTS_LIMIT' ||
      code === 'FST_FIELDS_LIMIT'
    ) {
      throw new AppError(
        HTTP.PAYLOAD_TOO_LARGE,
        'The form is too large: each file may be at most 5 MB.',
        'The form is too large: each file may be at most 5 MB.',
      );
    }
    throw e;
  }
  Object.assign(errors, nulFields(fields));
  if (Object.keys(errors).length) throw invalid(errors);
  return { fields, files, list };
}

function safeName(name: string): string {
  const base = path
    .basename(name || 'document')
    .replace(/[^\w.\- ]+/g, '_')
    .slice(0, 100);
  return base || 'document';
}

const EXT: Record<AllowedType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/** Writes the file under DATA_DIR/uploads with a random name (readable by this process only). */
export async function storeUpload(
  ctx: AppContext,
  db: DbOrTx,
  f: ReceivedFile,
  accountId: string,
  uploadedBy: string,
): Promise<string> {
  const dir = path.join(ctx.config.dataDir, 'uploads');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const storageName = `${randomToken(24)}.${EXT[f.type]}`;
  writeFileSync(path.join(dir, storageName), f.buffer, { mode: 0o600 });
  const id = crypto.randomUUID();
  await db.insert(uploads).values({
    id,
    accountId,
    uploadedBy,
    field: f.field,
    originalName: f.filename,
    contentType: f.type,
    size: f.buffer.length,
    storageName,
    sha256: createHash('sha256').update(f.buffer).digest('hex'),
    createdAt: ctx.now(),
  });
  return id;
}

export const uploadPath = (ctx: AppContext, storageName: string) =>
  path.join(ctx.config.dataDir, 'uploads', storageName);
