import nodemailer from 'nodemailer';

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
  // short timeouts: a dead or stuck SMTP server must not hold the worker
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 15000,
    disableFileAccess: true,
    disableUrlAccess: true,
  } as any);
  return {
    configured: true,
    async send(msg) {
      const info = await transporter.sendMail({
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
      await transporter.verify();
    },
    close() {
      transporter.close();
    },
  };
}
