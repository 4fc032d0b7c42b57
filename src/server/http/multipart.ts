import type { FastifyRequest } from 'fastify';
import { stopReadingBody } from './body-limit';
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
 *
 * Without a Content-Length (chunked) the cap holds while the body streams in (issue 32): the file
 * stops at `maxBytes` (busboy's limit event), and the whole body (fields, parts in other fields,
 * multipart framing) is counted and stops at `maxBytes` + 256 KB. Past either, reading stops at
 * once and the answer is 413; the rest of the body is never read and the connection ends a moment
 * after the answer (stopReadingBody, also called by the error handler for every 413).
 */
export async function readUpload(req: FastifyRequest, opts: ReadUploadOptions): Promise<UploadedFile> {
  const tooLarge = () => payloadTooLarge(opts.tooLargeMessage ?? `File too large. Maximum file size is ${maxSizeText(opts.maxBytes)}`);
  if (!req.isMultipart()) throw unsupportedMediaType('Expected a multipart/form-data upload');
  const cap = opts.maxBytes + MULTIPART_OVERHEAD;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > cap) throw tooLarge();

  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  let wrongField: string | null = null;
  let current: NodeJS.ReadableStream & { destroy(e?: Error): void } | null = null;

  // every byte of the body, as it arrives: past the cap, stop reading and answer
  let received = 0;
  let stop: (e: HttpError) => void = () => undefined;
  const overCap = new Promise<never>((_, reject) => (stop = reject));
  overCap.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= cap) return;
    req.raw.off('data', onData);
    stopReadingBody(req.raw);
    const e = tooLarge();
    current?.destroy(e);
    stop(e);
  };
  req.raw.on('data', onData);

  const readParts = async () => {
    const parts = req.parts({
      limits: { fileSize: opts.maxBytes, files: 1, fields: opts.maxFields ?? 10, fieldSize: 64 * 1024, parts: (opts.maxFields ?? 10) + 1 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      current = part.file;
      // the file reached maxBytes: busboy would go on reading (and dropping) the rest of the part
      part.file.once('limit', () => part.file.destroy(tooLarge()));
      if (part.fieldname !== opts.field) {
        wrongField = part.fieldname;
        for await (const _chunk of part.file) {
          // read and dropped (counted by the cap)
        }
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += chunk.length;
        if (size > opts.maxBytes) throw tooLarge();
        chunks.push(chunk as Buffer);
      }
      if (part.file.truncated) throw tooLarge();
      file = { data: Buffer.concat(chunks, size), filename: part.filename ?? '', clientType: part.mimetype ?? '', fields };
    }
  };

  try {
    await Promise.race([readParts(), overCap]);
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const err = e as { statusCode?: number; code?: string };
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (err.code === 'FST_FILES_LIMIT' || err.code === 'FST_PARTS_LIMIT' || err.code === 'FST_FIELDS_LIMIT') {
      throw payloadTooLarge('Too many parts in the upload: send one file');
    }
    if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw unsupportedMediaType('Expected a multipart/form-data upload');
    throw badRequest('The upload could not be read');
  } finally {
    req.raw.off('data', onData);
  }
  const got = file as UploadedFile | null;
  if (!got) {
    const message = wrongField ? `Expected the file in field ${opts.field}` : 'Please choose a file to upload';
    throw badRequest(message, { [opts.field]: message });
  }
  if (got.data.length === 0) throw badRequest('The file is empty', { [opts.field]: 'The file is empty' });
  return got;
}
