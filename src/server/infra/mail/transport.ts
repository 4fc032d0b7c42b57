import type { Transporter } from 'nodemailer';

export interface MailTransport {
  readonly configured: boolean;
  send(msg: { from: string; to: string; subject: string; text: string; html: string; messageId: string }): Promise<string | undefined>;
  verify(): Promise<void>;
  close(): void;
}

export function createMailTransport(smtpUrl: string | undefined): MailTransport {
  if (!smtpUrl) {
    return {
      configured: false,
      async send() {
        throw new Error('SMTP is not configured');
      },
      async verify() {
        throw new Error('SMTP is not configured');
      },
      close() {},
    };
  }
  // the library (about 15 MB resident) loads with the first e-mail, not with the server;
  // short timeouts: a dead or stuck SMTP server must not hold the worker
  let transporter: Promise<Transporter> | null = null;
  const connect = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: 5000,
        greetingTimeout: 5000,
        socketTimeout: 15000,
        disableFileAccess: true,
        disableUrlAccess: true,
      } as any),
    ));
  return {
    configured: true,
    async send(msg) {
      const info = await (await connect()).sendMail({
        from: msg.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
        messageId: msg.messageId,
      });
      return info.messageId;
    },
    async verify() {
      await (await connect()).verify();
    },
    close() {
      // a transport never used has nothing to close
      void transporter?.then((t) => t.close()).catch(() => undefined);
    },
  };
}
