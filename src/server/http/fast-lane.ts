import crypto from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerOptions, RawServerDefault } from 'fastify';

/**
 * The fast lane (decision 38-05): answers that are the same bytes and headers for every anonymous
 * caller (built files, the cached public page of a profile) are written straight to Node's HTTP
 * server, in front of Fastify, once Fastify has answered that request class once.
 *
 * How an answer gets here: the route that makes it captures it (`captureAnswer`, from a
 * route-level onSend hook, so every app-wide header, security headers included, is already set),
 * minus what belongs to one request (its id, Date; an answer that sets a cookie is not kept), and
 * only from a request of the class the lane takes. The lane replays it with a fresh request id. Nothing in it is built by hand, so it cannot
 * drift from what Fastify sends.
 *
 * What the lane leaves to Fastify (the answer is then made, and counted, as before): any method but
 * GET, conditional and range requests, requests through a proxy (X-Forwarded-*), a body on a GET, an
 * encrypted socket (HSTS depends on it), a server that is closing (Fastify answers 503), and
 * whatever the route's own matcher declines (query strings, sessions, cold caches).
 * Lane answers skip Fastify's hooks: no per-request log line, no request metrics, no session
 * lookup (none of which the answer depends on).
 */

/** A whole answer, ready to be written: status, headers as a flat [name, value, ...] list, body. */
export interface CapturedAnswer {
  status: number;
  headers: string[];
  body: Buffer;
}

/** Answers the request and returns true, or returns false to hand it to Fastify untouched. */
type LaneRoute = (req: IncomingMessage, res: ServerResponse, path: string, query: string) => boolean;

export interface FastLane {
  exact: Map<string, LaneRoute>;
  prefixes: Array<{ prefix: string; route: LaneRoute }>;
  open: boolean;
  /** answers written by the lane since start-up */
  answered: number;
}

const lanes = new WeakMap<object, FastLane>();

export function createFastLane(): FastLane {
  return { exact: new Map(), prefixes: [], open: true, answered: 0 };
}

/** The lane of an app (keyed by its context object, the same in every plugin scope). */
export function attachFastLane(ctx: object, lane: FastLane): void {
  lanes.set(ctx, lane);
}

/** The app's lane, or null when the app has none (tests that build an app without one). */
export function fastLaneOf(ctx: object): FastLane | null {
  return lanes.get(ctx) ?? null;
}

/** Headers that make a request something other than a plain GET of the same thing. */
function plainGet(req: IncomingMessage): boolean {
  const h = req.headers;
  return (
    req.method === 'GET' &&
    h['if-none-match'] === undefined &&
    h['if-modified-since'] === undefined &&
    h.range === undefined &&
    h['content-length'] === undefined &&
    h['transfer-encoding'] === undefined &&
    h['x-forwarded-proto'] === undefined &&
    h['x-forwarded-host'] === undefined &&
    h['x-forwarded-for'] === undefined &&
    h.forwarded === undefined &&
    !(req.socket as { encrypted?: boolean }).encrypted
  );
}

function route(lane: FastLane, req: IncomingMessage, res: ServerResponse): boolean {
  if (!lane.open || !plainGet(req)) return false;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const exact = lane.exact.get(path);
  if (exact) return exact(req, res, path, query);
  for (const p of lane.prefixes) if (path.startsWith(p.prefix)) return p.route(req, res, path, query);
  return false;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/** The request id, as the app's genReqId makes it (a sane caller's X-Request-Id is kept). */
function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** Writes a captured answer with this request's id. */
export function replay(lane: FastLane, req: IncomingMessage, res: ServerResponse, answer: CapturedAnswer): true {
  lane.answered++;
  res.writeHead(answer.status, [...answer.headers, 'x-request-id', requestId(req), 'content-length', String(answer.body.length)]);
  res.end(answer.body);
  return true;
}

/** Per-request headers, never replayed: the lane writes its own id, Node its own Date and length. */
const NOT_KEPT = new Set(['x-request-id', 'date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The answer Fastify is about to send, as a replayable answer; null when it must not be kept for
 * others: not a 200, a body that is not bytes, a cookie set, or a caller who is signed in.
 */
export function captureAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): CapturedAnswer | null {
  // only what the lane itself would take: a plain GET (no proxy, no validators, no TLS) by a caller not signed in
  if (!plainGet(req.raw) || reply.statusCode !== 200 || !Buffer.isBuffer(payload) || req.user) return null;
  const headers: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || NOT_KEPT.has(name)) continue;
    if (name === 'set-cookie') return null;
    if (Array.isArray(value)) for (const v of value) headers.push(name, String(v));
    else headers.push(name, String(value));
  }
  return { status: 200, headers, body: payload };
}

/**
 * Fastify's serverFactory: the same HTTP/1.1 server Fastify would make (its timeouts and limits),
 * with the lane in front of Fastify's handler.
 */
export function fastLaneServerFactory(lane: FastLane) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void, opts: FastifyServerOptions): RawServerDefault => {
    const server = http.createServer((opts as { http?: http.ServerOptions }).http ?? {}, (req, res) => {
      if (!route(lane, req, res)) handler(req, res);
    });
    const o = opts as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; maxRequestsPerSocket?: number };
    if (o.keepAliveTimeout !== undefined) server.keepAliveTimeout = o.keepAliveTimeout;
    if (o.requestTimeout !== undefined) server.requestTimeout = o.requestTimeout;
    server.setTimeout(o.connectionTimeout ?? 0);
    if (o.maxRequestsPerSocket && o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
    return server;
  };
}
