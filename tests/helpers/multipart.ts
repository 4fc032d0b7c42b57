import crypto from 'node:crypto';

/** A multipart/form-data body for app.inject: one file plus optional text fields. */
export function multipartBody(
  field: string,
  data: Buffer,
  opts: { filename?: string; contentType?: string; fields?: Record<string, string> } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----mc${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(opts.fields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${opts.filename ?? 'file.png'}"\r\nContent-Type: ${opts.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
  );
  parts.push(data);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  const payload = Buffer.concat(parts);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(payload.length) } };
}

/** Sends a multipart upload with the agent's cookies. */
export async function uploadAs(
  app: import('fastify').FastifyInstance,
  agent: { cookies: Map<string, string> },
  url: string,
  field: string,
  data: Buffer,
  opts: { filename?: string; contentType?: string; fields?: Record<string, string> } = {},
) {
  const { payload, headers } = multipartBody(field, data, opts);
  const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return app.inject({ method: 'POST', url, payload, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
}
