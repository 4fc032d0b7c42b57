import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client';
import type { MailTransport } from '#server/infra/mail/transport';
import { queryRows } from '#server/db/rows';

export interface OutboxWorker {
  /** process due e-mails now (also called on a timer); resolves with how many were sent */
  runOnce(): Promise<number>;
  /** ask for a run soon (after an e-mail is queued) */
  kick(): void;
  stop(): Promise<void>;
}

const MAX_ATTEMPTS = 12;
const BATCH = 10;

/** Backoff after the n-th failed attempt: 5 s, 10 s, 20 s, ... capped at 30 min. */
export function backoffSeconds(attempts: number): number {
  return Math.min(1800, 5 * 2 ** Math.max(0, attempts - 1));
}

export function createOutboxWorker(opts: {
  db: Db;
  transport: MailTransport;
  from: string;
  log: FastifyBaseLogger;
  intervalMs?: number;
  domain?: string;
}): OutboxWorker {
  const { db, transport, from, log } = opts;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let stopped = false;
  let kicked = false;

  async function claim() {
    // rows are claimed with a lease; SKIP LOCKED lets several instances share the queue
    return queryRows<{
      id: number;
      dedupe_key: string;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string;
      attempts: number;
    }>(
      db,
      sql`
      update outbox set locked_until = now() + interval '2 minutes', attempts = attempts + 1
      where id in (
        select id from outbox
        where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
        order by id limit ${BATCH}
        for update skip locked)
      returning id, dedupe_key, to_address, subject, text_body, html_body, attempts`,
    );
  }

  async function process(): Promise<number> {
    if (!transport.configured) return 0;
    let sent = 0;
    for (;;) {
      const rows = await claim();
      if (rows.length === 0) break;
      for (const row of rows) {
        try {
          // a stable Message-ID per event lets mail systems drop a duplicate if we crash after sending
          const messageId = `<${row.dedupe_key.replace(/[^a-zA-Z0-9.-]/g, '.')}@${opts.domain ?? 'metalcards.nyc'}>`;
          const id = await transport.send({ from, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body, messageId });
          await db.execute(sql`update outbox set status = 'sent', sent_at = now(), locked_until = null, last_error = null, message_id = ${id ?? messageId} where id = ${row.id}`);
          sent++;
        } catch (err: any) {
          const attempts = Number(row.attempts);
          const failed = attempts >= MAX_ATTEMPTS;
          const delay = backoffSeconds(attempts);
          await db
            .execute(
              sql`update outbox set status = ${failed ? 'failed' : 'pending'}, locked_until = null, last_error = ${String(err?.message ?? err).slice(0, 500)},
                  next_attempt_at = now() + make_interval(secs => ${delay}) where id = ${row.id}`,
            )
            .catch(() => {});
          log.warn({ outboxId: row.id, attempts, err: err?.message }, 'e-mail send failed; will retry');
        }
      }
      if (rows.length < BATCH) break;
    }
    return sent;
  }

  function runOnce(): Promise<number> {
    if (running) return running.then(() => runOnce());
    running = process()
      .catch((err) => {
        log.warn({ err: err?.message }, 'outbox run failed');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      kicked = false;
      await runOnce();
      schedule(opts.intervalMs ?? 5000);
    }, ms);
    timer.unref();
  }

  if (transport.configured) schedule(500);

  return {
    runOnce,
    kick() {
      if (!transport.configured || stopped || kicked) return;
      kicked = true;
      schedule(50);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (running) await running.catch(() => {});
      transport.close();
    },
  };
}
