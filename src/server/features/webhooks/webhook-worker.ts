import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Db } from '#server/db/client';
import { queryRow, queryRows } from '#server/db/rows';
import { randomToken } from '#server/infra/crypto';
import { onEventRecorded } from './events';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { createPollingLoop, type PollingWorker } from '#server/infra/polling-worker';
import { checkWebhookUrl, type AddressPolicy, type ResolvedAddress } from './webhook-address';

/**
 * Webhook delivery (issue 23, decision 23-02), modelled on the e-mail outbox (06-02):
 * 1. fan-out: each recorded event becomes one delivery row per matching enabled endpoint;
 * 2. delivery: per endpoint, only the oldest pending delivery is tried (in order per endpoint),
 *    claimed with `FOR UPDATE SKIP LOCKED` and a lease so several instances share the queue;
 *    a failure waits 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then every 4 h, until 24 h after
 *    its first attempt; then the endpoint is disabled and its owner e-mailed.
 * At least once: a crash after the receiver answered and before the row is marked repeats the
 * delivery with the same `webhook-id`.
 * 3. pruning: finished deliveries older than DELIVERY_RETENTION_DAYS leave the log (hourly).
 */
/** `runOnce` fans out recorded events and delivers what is due; resolves with how many deliveries succeeded. */
export type WebhookWorker = PollingWorker;

/** The whole retry window: a delivery still failing this long after its first attempt disables the endpoint. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const SCHEDULE_SECONDS = [10, 30, 120, 600, 1800, 3600, 7200, 14400];
const BATCH = 10;
const LEASE_SECONDS = 120;
/** Finished deliveries (delivered or failed) stay in the log this long; pending ones always stay. */
export const DELIVERY_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;

/** Seconds to wait after the n-th failed attempt. */
export function webhookBackoffSeconds(attempts: number): number {
  return SCHEDULE_SECONDS[Math.min(SCHEDULE_SECONDS.length, Math.max(1, attempts)) - 1];
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  /** what the delivery log shows: one of DELIVERY_ERRORS or `HTTP <status>`, never a code or an address */
  error: string | null;
  /** what happened exactly (error code, resolved address): the server log only */
  detail?: string;
}

/**
 * The reasons the delivery log (and the owner's e-mail) may show (issue 33, decision 33-02): they
 * tell the owner what to fix without telling anyone what sits behind an address (an open port
 * from a closed one, a resolver's answer). The error code goes to the server log with the delivery id.
 */
export const DELIVERY_ERRORS = {
  refused: 'address not allowed',
  connect: 'could not connect',
  timeout: 'timed out',
  tls: 'TLS failed',
} as const;

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(VERIFY|GET)_|HOSTNAME_MISMATCH$)/;

/** The log's reason for a failed connection (any code that is not TLS or a timeout: "could not connect"). */
export function deliveryErrorOf(code: string | undefined): string {
  if (code && TLS_CODE.test(code)) return DELIVERY_ERRORS.tls;
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return DELIVERY_ERRORS.timeout;
  return DELIVERY_ERRORS.connect;
}

/**
 * One signed POST to the checked address: the connection's only name lookup answers `pinned` (no
 * second resolution), the URL's host stays the Host header and the TLS server name, a fresh
 * connection every time (no pooled socket to another address), no redirects followed, body of the
 * answer not kept.
 */
export async function postPinned(url: URL, pinned: ResolvedAddress, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const started = Date.now();
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  return new Promise((resolve) => {
    const mod = url.protocol === 'https:' ? https : http;
    let timedOut = false;
    const req = mod.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, agent: false, timeout: timeoutMs }, (res) => {
      res.resume(); // the answer's body is not kept
      const done = () => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        resolve({ ok, status, durationMs: Date.now() - started, error: ok ? null : `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` });
      };
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    const tooLong = () => {
      timedOut = true;
      req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    };
    req.on('timeout', tooLong);
    // a hard limit too: a receiver trickling its answer cannot hold the worker
    const hard = setTimeout(tooLong, timeoutMs + 1000);
    req.on('close', () => clearTimeout(hard));
    req.on('error', (err: NodeJS.ErrnoException) => {
      const error = timedOut ? DELIVERY_ERRORS.timeout : deliveryErrorOf(err.code);
      const detail = `${err.code ?? 'error'} ${err.message} (connecting to ${pinned.address})`.slice(0, 300);
      resolve({ ok: false, status: null, durationMs: Date.now() - started, error, detail });
    });
    req.end(body);
  });
}

export function createWebhookWorker(opts: {
  db: Db;
  log: FastifyBaseLogger;
  policy: AddressPolicy;
  /** called after an e-mail was queued (the outbox's kick) */
  onEmailQueued: () => void;
  /** where the owner manages their endpoints (for the "disabled" e-mail) */
  manageUrl: () => string;
  timeoutMs?: number;
  intervalMs?: number;
}): WebhookWorker {
  const { db, log } = opts;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const kickTimers = new Set<NodeJS.Timeout>();

  /** each recorded event → a delivery per matching endpoint, then deleted, in one transaction */
  async function fanOut(): Promise<number> {
    return db.transaction(async (tx) => {
      const events = await queryRows<{ id: number; type: string; user_id: string | null; team_id: string | null; data: unknown; created_at: Date | string }>(
        tx,
        sql`select id, type, user_id, team_id, data, created_at from webhook_events order by id limit 100 for update skip locked`,
      );
      for (const ev of events) {
        const payload = JSON.stringify({ type: ev.type, timestamp: new Date(ev.created_at).toISOString(), data: ev.data });
        const messageId = `msg_${randomToken(18)}`;
        // the user's own endpoints; a team's endpoints while their creator is still its owner or admin
        await tx.execute(sql`
          insert into webhook_deliveries (endpoint_id, event_id, message_id, type, payload)
          select e.id, ${ev.id}, ${messageId}, ${ev.type}, ${payload} from webhook_endpoints e
          where e.enabled and e.events @> jsonb_build_array(${ev.type}::text)
            and ((e.team_id is null and e.user_id = ${ev.user_id}::uuid)
              or (e.team_id is not null and e.team_id = ${ev.team_id}::uuid and exists (
                select 1 from team_members m where m.team_id = e.team_id and m.user_id = e.user_id and m.role in ('owner', 'admin'))))
          order by e.id
          on conflict (event_id, endpoint_id) do nothing`);
      }
      // fanned out: the deliveries keep the payload, the event goes (nothing lingers after an account is deleted)
      if (events.length) await tx.execute(sql`delete from webhook_events where id in (${sql.join(events.map((e) => sql`${e.id}`), sql`, `)})`);
      return events.length;
    });
  }

  /** the oldest pending delivery of each enabled endpoint, when it is due */
  async function claim() {
    return queryRows<{ id: number; endpoint_id: number; message_id: string; payload: string; attempts: number; first_attempt_at: Date | string | null; url: string; secret: string }>(
      db,
      sql`
      with due as (
        select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and e.enabled and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
          and not exists (select 1 from webhook_deliveries o where o.endpoint_id = d.endpoint_id and o.status = 'pending' and o.id < d.id)
        order by d.id limit ${BATCH}
        for update of d skip locked)
      update webhook_deliveries d set locked_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = d.attempts + 1,
        first_attempt_at = coalesce(d.first_attempt_at, now()), last_attempt_at = now()
      from due, webhook_endpoints e
      where d.id = due.id and e.id = d.endpoint_id
      returning d.id, d.endpoint_id, d.message_id, d.payload, d.attempts, d.first_attempt_at, e.url, e.secret`,
    );
  }

  async function attempt(row: { message_id: string; payload: string; url: string; secret: string }): Promise<AttemptResult> {
    const check = await checkWebhookUrl(row.url, opts.policy);
    if (!check.ok) {
      const error = check.kind === 'unresolved' ? DELIVERY_ERRORS.connect : DELIVERY_ERRORS.refused;
      return { ok: false, status: null, durationMs: 0, error, detail: check.detail ?? check.message };
    }
    const now = new Date();
    const signature = new Webhook(row.secret).sign(row.message_id, now, row.payload);
    return postPinned(
      check.url,
      check.address,
      {
        'content-type': 'application/json',
        'user-agent': 'MetalCardsNYC-Webhooks/1.0',
        'webhook-id': row.message_id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      row.payload,
      timeoutMs,
    );
  }

  async function disable(endpointId: number, reason: string) {
    await db.transaction(async (tx) => {
      const ep = await queryRow<{ url: string; email: string; disabled: boolean }>(
        tx,
        sql`update webhook_endpoints e set enabled = false, disabled_at = now(), disabled_reason = ${reason}, updated_at = now()
            from users u where e.id = ${endpointId} and u.id = e.user_id and e.enabled returning e.url, u.email, false as disabled`,
      );
      if (!ep) return;
      await tx.execute(sql`update webhook_deliveries set status = 'failed', locked_until = null, last_error = coalesce(last_error, 'endpoint disabled')
                           where endpoint_id = ${endpointId} and status = 'pending'`);
      const content = renderEmail({
        preheader: 'Webhook deliveries stopped',
        heading: 'Your webhook endpoint was disabled',
        paragraphs: [
          `We could not deliver to ${ep.url} for 24 hours, so we stopped sending to it and marked the waiting deliveries as failed.`,
          'Fix the receiver, then enable the endpoint again and use Redeliver on the deliveries you need.',
        ],
        rows: [['Reason', reason]],
        button: { label: 'Manage webhooks', url: opts.manageUrl() },
      });
      await enqueueEmail(tx, { dedupeKey: `webhook-disabled:${endpointId}:${Date.now()}`, kind: 'webhook-disabled', to: ep.email, subject: 'Your webhook endpoint was disabled', ...content });
    });
    opts.onEmailQueued();
    log.warn({ endpointId }, 'webhook endpoint disabled after 24 h of failures');
  }

  async function deliver(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const rows = await claim();
      if (rows.length === 0) break;
      await Promise.all(
        rows.map(async (row) => {
          const result = await attempt(row).catch((err: Error) => ({ ok: false, status: null, durationMs: 0, error: DELIVERY_ERRORS.connect, detail: err.message }) as AttemptResult);
          if (result.ok) {
            delivered++;
            await db.execute(sql`update webhook_deliveries set status = 'delivered', delivered_at = now(), locked_until = null, response_status = ${result.status},
                                 duration_ms = ${result.durationMs}, last_error = null where id = ${row.id}`);
            return;
          }
          const first = new Date(row.first_attempt_at ?? Date.now()).getTime();
          const giveUp = Date.now() - first >= RETRY_WINDOW_MS;
          const next = Math.min(Date.now() + webhookBackoffSeconds(Number(row.attempts)) * 1000, first + RETRY_WINDOW_MS);
          await db.execute(sql`update webhook_deliveries set status = ${giveUp ? 'failed' : 'pending'}, locked_until = null, response_status = ${result.status},
                               duration_ms = ${result.durationMs}, last_error = ${result.error}, next_attempt_at = ${new Date(next).toISOString()}::timestamptz where id = ${row.id}`);
          // the details (error code, address) stay here, with the delivery id; the log row keeps the generic reason
          log.info({ deliveryId: row.id, endpointId: row.endpoint_id, attempts: row.attempts, error: result.error, detail: result.detail }, giveUp ? 'webhook delivery failed; giving up' : 'webhook delivery failed; will retry');
          if (giveUp) await disable(row.endpoint_id, `No successful answer for 24 hours (last: ${result.error ?? 'error'})`);
        }),
      );
    }
    return delivered;
  }

  /** at most once an hour per instance: the log keeps DELIVERY_RETENTION_DAYS of finished deliveries */
  let prunedAt = 0;
  async function prune() {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    await db.execute(sql`delete from webhook_deliveries where status <> 'pending'
      and coalesce(delivered_at, last_attempt_at, created_at) < now() - make_interval(days => ${DELIVERY_RETENTION_DAYS})`);
  }

  async function process(): Promise<number> {
    while ((await fanOut()) > 0);
    const delivered = await deliver();
    await prune().catch((err) => log.warn({ err: err?.message }, 'old webhook deliveries not pruned'));
    return delivered;
  }

  const loop = createPollingLoop({ pass: process, log, failMessage: 'webhook run failed', intervalMs: opts.intervalMs ?? 2000 });

  function soon(ms: number) {
    if (loop.stopped || kickTimers.size >= 4) return;
    const t = setTimeout(() => {
      kickTimers.delete(t);
      void loop.runOnce();
    }, ms);
    t.unref();
    kickTimers.add(t);
  }

  // an event is recorded inside a transaction that commits a moment later: look now and again shortly
  const unsubscribe = onEventRecorded(() => kick());
  function kick() {
    soon(30);
    soon(300);
  }
  loop.schedule(500);

  return {
    runOnce: loop.runOnce,
    kick,
    async stop() {
      unsubscribe();
      for (const t of kickTimers) clearTimeout(t);
      await loop.stop();
    },
  };
}
