import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client';
import type { MailTransport } from '#server/infra/mail/transport';
import { queryRows } from '#server/db/rows';
import { redactOneTimeLinks } from '#server/infra/mail/one-time-links';
import { createPollingLoop, type PollingWorker } from '#server/infra/polling-worker';

/** `runOnce` sends the due e-mails and resolves with how many were sent; `kick` after an e-mail is queued. */
export interface OutboxWorker extends PollingWorker {
  /** delete sent (and given-up) e-mails older than the kept days; resolves with how many went (also hourly) */
  prune(): Promise<number>;
}

const MAX_ATTEMPTS = 12;
const BATCH = 10;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

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
  /** sent e-mails are deleted this many days after sending (OUTBOX_KEEP_DAYS); failed ones as long after they were queued */
  keepDays?: number;
}): OutboxWorker {
  const { db, transport, from, log } = opts;
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
          // once sent, the stored copy keeps no usable one-time link (issue 33): labels in their place
          const text = redactOneTimeLinks(row.text_body);
          const html = redactOneTimeLinks(row.html_body);
          await db.execute(
            sql`update outbox set status = 'sent', sent_at = now(), locked_until = null, last_error = null, message_id = ${id ?? messageId},
                text_body = ${text}, html_body = ${html} where id = ${row.id}`,
          );
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

  const loop = createPollingLoop({
    pass: process,
    log,
    failMessage: 'outbox run failed',
    intervalMs: opts.intervalMs ?? 5000,
    onTick: () => {
      kicked = false;
    },
  });

  if (transport.configured) loop.schedule(500);

  const keepDays = opts.keepDays ?? 30;
  async function prune(): Promise<number> {
    const gone = await queryRows<{ id: number }>(
      db,
      sql`delete from outbox
          where (status = 'sent' and sent_at < now() - make_interval(days => ${keepDays}))
             or (status = 'failed' and created_at < now() - make_interval(days => ${keepDays}))
          returning id`,
    );
    if (gone.length) log.info({ pruned: gone.length, keepDays }, 'old e-mails pruned from the outbox');
    return gone.length;
  }
  // hourly, on every instance (a delete of the same old rows twice is harmless)
  const pruneTimer = setInterval(() => {
    if (!loop.stopped) prune().catch((err) => log.warn({ err: err?.message }, 'outbox prune failed'));
  }, PRUNE_EVERY_MS);
  pruneTimer.unref();

  return {
    runOnce: loop.runOnce,
    kick() {
      if (!transport.configured || loop.stopped || kicked) return;
      kicked = true;
      loop.schedule(50);
    },
    prune,
    async stop() {
      clearInterval(pruneTimer);
      await loop.stop();
      transport.close();
    },
  };
}
