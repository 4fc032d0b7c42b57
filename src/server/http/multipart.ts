import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError, payloadTooLarge, unsupportedMediaType } from './http-errors';

export interface UploadedFile {
  data: Buffer;
  /** the client's file name: for display only, never used as a storage name */
  filename: string;
  /** the client's stated content type: informative only, the bytes decide */
  clientType: string;
  /** other (non-file) form fields, as text */
  fields: Record<string, string>;
}

export interface ReadUploadOptions {
  /** the multipart field holding the file, e.g. profileImage */
  field: string;
  /** cap in bytes, enforced while the bytes stream in (413 beyond it) */
  maxBytes: number;
  /** message of the 413 (default "File too large. Maximum file size is {n}MB") */
  tooLargeMessage?: string;
  /** text fields accepted besides the file (others are ignored); default none */
  maxFields?: number;
}

const MULTIPART_OVERHEAD = 256 * 1024;

export function maxSizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)}MB`;
}

/**
 * Reads one uploaded file from a multipart request, counting bytes as they arrive:
 * 415 when the request is not multipart, 413 beyond `maxBytes` (announced Content-Length is
 * checked first, so a huge upload is refused before it is read), 400 when the field is missing.
 */
export async function readUpload(req: FastifyRequest, opts: ReadUploadOptions): Promise<UploadedFile> {
  const tooLarge = () => payloadTooLarge(opts.tooLargeMessage ?? `File too large. Maximum file size is ${maxSizeText(opts.maxBytes)}`);
  if (!req.isMultipart()) throw unsupportedMediaType('Expected a multipart/form-data upload');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > opts.maxBytes + MULTIPART_OVERHEAD) throw tooLarge();

  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  let oversized = false;
  let wrongField: string | null = null;

  try {
    const parts = req.parts({
      limits: { fileSize: opts.maxBytes, files: 1, fields: opts.maxFields ?? 10, fieldSize: 64 * 1024, parts: (opts.maxFields ?? 10) + 1 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== opts.field) {
        wrongField = part.fieldname;
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += chunk.length;
        if (size > opts.maxBytes) {
          oversized = true;
          continue; // keep draining so the client gets a clean answer
        }
        chunks.push(chunk as Buffer);
      }
      if (part.file.truncated) oversized = true;
      if (!oversized) file = { data: Buffer.concat(chunks, size), filename: part.filename ?? '', clientType: part.mimetype ?? '', fields };
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const err = e as { statusCode?: number; code?: string };
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (err.code === 'FST_FILES_LIMIT' || err.code === 'FST_PARTS_LIMIT' || err.code === 'FST_FIELDS_LIMIT') {
      throw payloadTooLarge('Too many parts in the upload: send one file');
    }
    if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw unsupportedMediaType('Expected a multipart/form-data upload');
    throw badRequest('The upload could not be read');
  }
  if (oversized) throw tooLarge();
  if (!file) {
    const message = wrongField ? `Expected the file in field ${opts.field}` : 'Please choose a file to upload';
    throw badRequest(message, { [opts.field]: message });
  }
  if (file.data.length === 0) throw badRequest('The file is empty', { [opts.field]: 'The file is empty' });
  return file;
}
