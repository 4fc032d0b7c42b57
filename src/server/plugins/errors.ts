import type { FastifyInstance, FastifyError } from 'fastify';
import { stopReadingBody } from '#server/http/body-limit';
import { HttpError } from '#server/http/http-errors';
import { RequestValidationError, issuesToFieldErrors } from '#server/http/validation';

/** Every error becomes JSON `{ message, errors? }` with a fitting status; no stack traces out. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validation?: unknown }, req, reply) => {
    // a body over its limit: not one more byte of it is read (issue 32), and the connection ends a
    // moment after the answer rather than with it (Fastify's "Connection: close" would close a
    // socket with unread bytes: the reset can drop the 413 before the client reads it)
    if (err.statusCode === 413 || (err instanceof HttpError && err.statusCode === 413)) {
      stopReadingBody(req.raw);
      reply.removeHeader('connection');
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send({ message: err.message, ...(err.errors ? { errors: err.errors } : {}), ...(err.extra ?? {}) });
    }
    const cause = (err as any).validation ? (err as any).cause ?? err : err;
    const ve = err instanceof RequestValidationError ? err : cause instanceof RequestValidationError ? cause : findValidation(err);
    if (ve) {
      return reply.status(400).send({ message: ve.message, errors: issuesToFieldErrors(ve.issues) });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413
          ? 'Request body is too large'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415
            ? 'Unsupported content type'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'Request body is empty'
              : err.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError
                ? 'Malformed request body'
                : err.message || 'Bad request';
      return reply.status(status).send({ message });
    }
    if (isBadCharacterError(err)) {
      return reply.status(400).send({ message: 'The request contains characters that are not allowed' });
    }
    if (status === 503) return reply.status(503).send({ message: err.message || 'Service temporarily unavailable' });
    if (isDbUnavailable(err)) {
      // a statement cancelled by statement_timeout (DB_QUERY_TIMEOUT_MS) is worth finding in the logs
      // (the statement without its parameters, which may hold personal data)
      if (isStatementTimeout(err)) req.log.warn({ statement: String(err.message).split('\nparams:')[0].slice(0, 300) }, 'database statement timed out');
      reply.header('retry-after', '5');
      return reply.status(503).send({ message: 'Service temporarily unavailable' });
    }
    // the caller went away while the answer was being made or written (a compress stream closed
    // under it: "Premature close"): nobody is there to read a 500, and it is no fault of ours
    if (callerIsGone(req.raw, reply.raw)) {
      req.log.info({ code: err.code }, 'the caller went away before the answer');
      return reply.status(499).send({ message: 'The request was closed before its answer.' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}

/** The connection closed (by the caller) before the answer was written. */
export function callerIsGone(req: { socket?: { destroyed?: boolean } | null }, res: { writableEnded?: boolean }): boolean {
  // not req.destroyed: a request whose body was read is destroyed too (Node 16+), caller or not
  return !res.writableEnded && req.socket?.destroyed === true;
}

function findValidation(err: any): RequestValidationError | undefined {
  if (err?.validation && Array.isArray(err.validation)) {
    const inner = err.validation.find((v: any) => v instanceof RequestValidationError);
    if (inner) return inner;
  }
  return undefined;
}

function isDbUnavailable(err: any): boolean {
  const code = err?.code ?? err?.cause?.code;
  // drizzle wraps driver errors ("Failed query: ...") with the driver's error as the cause
  const messages = `${err?.message ?? ''}\n${err?.cause?.message ?? ''}`;
  // 57014: cancelled, here by statement_timeout; "Query read timeout": pg's client-side query_timeout;
  // "Client was closed": a query queued behind one that timed out on the same connection
  return ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '57014', '08006', '08001', '08003', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout/i.test(messages);
}

function isStatementTimeout(err: any): boolean {
  return (err?.code ?? err?.cause?.code) === '57014';
}

/** PostgreSQL refuses NUL bytes and invalid encodings in text: that is bad input, not a server fault. */
function isBadCharacterError(err: any): boolean {
  const code = err?.code ?? err?.cause?.code;
  return code === '22021' || code === '22P05' || /invalid byte sequence|unsupported Unicode escape sequence/i.test(String(err?.message ?? err?.cause?.message ?? ''));
}
