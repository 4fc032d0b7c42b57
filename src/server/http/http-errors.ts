/** An error with an HTTP status that the error handler turns into `{ message, errors? }`. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: Record<string, string>,
    public readonly headers?: Record<string, string>,
    /** more fields of the answer (the status machine's 409 lists what is `missing`) */
    public readonly extra?: { missing?: string[]; code?: string },
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this') => new HttpError(403, message);
/** 403 with a machine-readable `code` the web client reacts to (issue 39: a second factor or a recent sign-in needed). */
export const forbiddenCode = (message: string, code: string) => new HttpError(403, message, undefined, undefined, { code });
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, errors?: Record<string, string>) => new HttpError(409, message, errors);
/** 409 for a move the order's status machine refuses, with what the move still needs (issue 35). */
export const conflictMissing = (message: string, missing: string[]) => new HttpError(409, message, undefined, undefined, { missing });
export const payloadTooLarge = (message = 'File too large') => new HttpError(413, message);
export const unsupportedMediaType = (message = 'Unsupported file type') => new HttpError(415, message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests. Please try again later.') =>
  new HttpError(429, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (message = 'Service temporarily unavailable') => new HttpError(503, message);
