import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** header value (first occurrence, unfolded), case-insensitive name */
  header(name: string): string | undefined;
  messageId: string | undefined;
  subject: string | undefined;
  /** decoded body of the first part with this content type (text/plain, text/html) */
  part(type: string): string | undefined;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** answer the next n DATA commands with a temporary failure (451) */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (nothing listens on it when this resolves). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function parseHeaders(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0];
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const map = new Map<string, string>();
  for (const line of unfolded.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) {
      const k = line.slice(0, i).trim().toLowerCase();
      if (!map.has(k)) map.set(k, line.slice(i + 1).trim());
    }
  }
  return map;
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Finds a MIME part by content type in a raw message (walks multipart bodies). */
export function findPart(raw: string, type: string): string | undefined {
  const headers = parseHeaders(raw);
  const ct = headers.get('content-type') ?? 'text/plain';
  const body = raw.slice(raw.search(/\r?\n\r?\n/)).replace(/^\r?\n\r?\n/, '');
  const boundary = /boundary="?([^";]+)"?/i.exec(ct)?.[1];
  if (ct.toLowerCase().startsWith('multipart/') && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const found = findPart(chunk.replace(/^\r?\n/, ''), type);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (ct.toLowerCase().startsWith(type.toLowerCase())) return decodeBody(body, headers.get('content-transfer-encoding'));
  return undefined;
}

/** A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps every message it accepts. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          const err = Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 });
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = parseHeaders(raw);
        messages.push({
          from: session.envelope.mailFrom ? (session.envelope.mailFrom as { address: string }).address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          header: (name) => headers.get(name.toLowerCase()),
          messageId: headers.get('message-id'),
          subject: headers.get('subject'),
          part: (type) => findPart(raw, type),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = ((server as any).server.address() as net.AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    failNext(n) {
      failures = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits for a condition without fixed sleeps (polls every 20 ms up to `timeoutMs`). */
export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
