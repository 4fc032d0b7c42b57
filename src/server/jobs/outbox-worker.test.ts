import crypto from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { orderInput } from '#tests/helpers/orders';
import { freePort, startSmtpServer, waitFor, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { outbox } from '#server/db/schema/index';
import { createMailTransport } from '#server/infra/mail/transport';
import { createOutboxWorker, backoffSeconds } from './outbox-worker';
import { orderStatusChangedEmail } from '#server/features/orders/order-emails';
import { designReviewedEmail } from '#server/features/designs/design-emails';
import { enqueueEmail } from '#server/infra/mail/outbox';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!().catch(() => undefined);
});
afterAll(async () => {
  while (cleanup.length) await cleanup.pop()!().catch(() => undefined);
});

async function appWithSmtp(url: string | undefined): Promise<TestApp> {
  const t = await createTestApp({ env: { ...(url ? { SMTP_URL: url } : {}), PUBLIC_URL: 'https://cards.example.test', MAIL_FROM: 'Metal Cards NYC <orders@cards.example.test>', RATE_LIMITS: 'off' } });
  cleanup.push(() => t.close());
  return t;
}

async function smtp(port?: number): Promise<TestSmtpServer> {
  const s = await startSmtpServer(port);
  cleanup.push(() => s.close());
  return s;
}

async function placeOrder(t: TestApp, overrides: Record<string, unknown> = {}) {
  const input = orderInput(overrides);
  const res = await t.app.inject({ method: 'POST', url: '/api/order', payload: input, headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(res.statusCode).toBe(201);
  return { input, body: res.json() as { orderId: number; statusUrl: string } };
}

const rows = (t: TestApp) => t.app.ctx.db.select().from(outbox).orderBy(outbox.id);

describe('e-mail over SMTP (a real smtp-server on 127.0.0.1)', () => {
  it('sends the order-received e-mail: plain text and HTML, the link, a stable Message-ID', async () => {
    const server = await smtp();
    const t = await appWithSmtp(server.url);
    const { input, body } = await placeOrder(t);
    const mail = await waitFor(() => server.messages.find((m) => m.to.includes(input.email)), 'the order e-mail');
    expect(mail.subject).toBe(`Order #${body.orderId} received - Metal Cards NYC`);
    expect(mail.header('from')).toContain('orders@cards.example.test');
    expect(mail.header('content-type')).toMatch(/multipart\/alternative/);
    expect(mail.messageId).toBe(`<order-received.${body.orderId}@cards.example.test>`);
    const text = mail.part('text/plain')!;
    const html = mail.part('text/html')!;
    expect(text).toContain(body.statusUrl);
    expect(text).toContain('$1,280.00');
    expect(html).toContain(`href="${body.statusUrl}"`);
    expect(html).toContain('METAL CARDS NYC');
    await waitFor(async () => (await rows(t)).every((r) => r.status === 'sent'), 'outbox row marked sent');
    const [row] = await rows(t);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('a visitor order: the e-mail carries the claim link, the stored copy keeps "[order claim link]" once sent (issue 33)', async () => {
    const server = await smtp();
    const t = await appWithSmtp(server.url);
    const { input, body } = await placeOrder(t);
    const mail = await waitFor(() => server.messages.find((m) => m.to.includes(input.email)), 'the order e-mail');
    const claim = /https:\/\/cards\.example\.test\/claim\/([A-Za-z0-9_-]+)/.exec(mail.part('text/plain')!);
    expect(claim, 'a claim link in the e-mail').not.toBeNull();
    expect(mail.part('text/html')).toContain(`/claim/${claim![1]}`);
    await waitFor(async () => (await rows(t)).every((r) => r.status === 'sent'), 'outbox row marked sent');
    const [row] = await rows(t);
    expect(row.textBody + row.htmlBody).not.toContain(claim![1]);
    expect(row.textBody).toContain('[order claim link]');
    expect(row.htmlBody).toContain('[order claim link]');
    // the status link is not single-use: it stays
    expect(row.textBody).toContain(body.statusUrl);
  });

  it('SMTP down, then back: orders still succeed, e-mails wait with backoff, then each goes out exactly once', async () => {
    const port = await freePort(); // nothing listens here yet
    const t = await appWithSmtp(`smtp://127.0.0.1:${port}`);
    const placed = [];
    for (let i = 0; i < 5; i++) placed.push(await placeOrder(t));

    await t.app.ctx.outbox.runOnce();
    await waitFor(async () => (await rows(t)).every((r) => r.attempts >= 1 && r.lastError), 'failed first attempts');
    let all = await rows(t);
    expect(all).toHaveLength(5);
    for (const r of all) {
      expect(r.status).toBe('pending');
      expect(r.lastError).toMatch(/ECONNREFUSED|connect/i);
      expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    }

    const server = await smtp(port); // SMTP is back
    // still inside the backoff window: nothing is sent yet
    expect(await t.app.ctx.outbox.runOnce()).toBe(0);
    expect(server.messages).toHaveLength(0);

    // the backoff has passed
    await t.app.ctx.db.execute(sql`update outbox set next_attempt_at = now()`);
    await t.app.ctx.outbox.runOnce();
    await waitFor(() => server.messages.length >= 5, 'five e-mails');
    all = await rows(t);
    expect(all.every((r) => r.status === 'sent')).toBe(true);

    // more runs send nothing more
    await t.app.ctx.db.execute(sql`update outbox set next_attempt_at = now()`);
    expect(await t.app.ctx.outbox.runOnce()).toBe(0);
    expect(server.messages).toHaveLength(5);
    const ids = server.messages.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(5);
    for (const p of placed) expect(server.messages.filter((m) => m.to.includes(p.input.email))).toHaveLength(1);
  });

  it('a temporary SMTP refusal (451) is retried later and delivered once', async () => {
    const server = await smtp();
    server.failNext(1);
    const t = await appWithSmtp(server.url);
    const { input } = await placeOrder(t);
    await waitFor(async () => (await rows(t))[0]?.lastError, 'the refused attempt');
    const [failed] = await rows(t);
    expect(failed.status).toBe('pending');
    expect(failed.lastError).toMatch(/451|try again/i);
    expect(server.messages).toHaveLength(0);
    await t.app.ctx.db.execute(sql`update outbox set next_attempt_at = now()`);
    await t.app.ctx.outbox.runOnce();
    await waitFor(() => server.messages.length === 1, 'the retried e-mail');
    expect(server.messages[0].to).toEqual([input.email]);
    const [sent] = await rows(t);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('two workers on one outbox never send an e-mail twice', async () => {
    const server = await smtp();
    const t = await appWithSmtp(undefined); // the app's own worker does not send
    for (let i = 0; i < 12; i++) {
      await enqueueEmail(t.app.ctx.db, { dedupeKey: `test:${i}`, kind: 'test', to: `r${i}@example.com`, subject: `n${i}`, text: 'hi', html: '<p>hi</p>' });
    }
    const make = () => createOutboxWorker({ db: t.app.ctx.db, transport: createMailTransport(server.url), from: 'a@example.com', log: t.app.log, intervalMs: 60_000 });
    const w1 = make();
    const w2 = make();
    cleanup.push(() => w1.stop(), () => w2.stop());
    const [a, b] = await Promise.all([w1.runOnce(), w2.runOnce()]);
    expect(a + b).toBe(12);
    expect(server.messages).toHaveLength(12);
    expect(new Set(server.messages.map((m) => m.subject)).size).toBe(12);
  });

  it('the same event queued twice is one e-mail (dedupe key)', async () => {
    const t = await appWithSmtp(undefined);
    const email = { dedupeKey: 'order-received:777', kind: 'x', to: 'a@example.com', subject: 's', text: 't', html: 'h' };
    await enqueueEmail(t.app.ctx.db, email);
    await enqueueEmail(t.app.ctx.db, email);
    expect((await t.app.ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, 'order-received:777'))).length).toBe(1);
  });

  it('without SMTP the e-mail stays readable in the outbox', async () => {
    const t = await appWithSmtp(undefined);
    const { body } = await placeOrder(t);
    expect(await t.app.ctx.outbox.runOnce()).toBe(0);
    const [row] = await rows(t);
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(0);
    expect(row.textBody).toContain(body.statusUrl);
    expect(row.htmlBody).toContain('<!doctype html>');
  });

  it('backs off 5 s, 10 s, 20 s ... up to 30 minutes', () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([5, 10, 20, 40]);
    expect(backoffSeconds(30)).toBe(1800);
  });
});

describe('e-mail contents', () => {
  const order = {
    id: 42,
    customerName: '<script>alert(1)</script> Eve',
    email: 'eve@example.com',
    quantity: 250,
    cardType: 'color',
    cardStyle: 'Brushed',
    deliveryOption: 'rush-24h',
    unitPriceCents: 500,
    deliveryFeeCents: 3000,
    totalCents: 128000,
  };
  it('status changed: both parts, escaped HTML, the link, one key per event', () => {
    const m = orderStatusChangedEmail(order, 'pending', 'shipped', 'https://x.test/order-status/abc', 7);
    expect(m.subject).toBe('Your cards have shipped (order #42) - Metal Cards NYC');
    expect(m.dedupeKey).toBe('order-status:42:7');
    expect(m.text).toContain('Your cards are on their way');
    expect(m.text).toContain('https://x.test/order-status/abc');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;');
  });
  it('design approved and rejected (with the reason)', () => {
    const ok = designReviewedEmail({ to: 'a@example.com', name: 'Ada Lovelace', approved: true, orderId: 5, link: 'https://x.test/o/1' });
    expect(ok.kind).toBe('design-approved');
    expect(ok.subject).toContain('Your proof is ready');
    expect(ok.text).toContain('Hi Ada');
    const no = designReviewedEmail({ to: 'a@example.com', name: 'Ada', approved: false, reason: 'Logo too small <b>', orderId: 5, link: 'https://x.test/o/1' });
    expect(no.kind).toBe('design-rejected');
    expect(no.text).toContain('Reason: Logo too small <b>');
    expect(no.html).toContain('Logo too small &lt;b&gt;');
    expect(no.dedupeKey).not.toBe(ok.dedupeKey);
  });
});
