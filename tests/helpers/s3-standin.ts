import http from 'node:http';
import crypto from 'node:crypto';
import type net from 'node:net';

export interface StoredObject {
  data: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3Standin {
  /** e.g. http://127.0.0.1:40123 (path-style: {endpoint}/{bucket}/{key}) */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket -> key -> object */
  buckets: Map<string, Map<string, StoredObject>>;
  objects(bucket?: string): Map<string, StoredObject>;
  /** every request seen, e.g. "PUT /bucket/key" */
  log: string[];
  /** settings for an app using this store */
  env(): Record<string, string>;
  close(): Promise<void>;
}

const xml = (code: string, message: string, resource: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource}</Resource><RequestId>${crypto.randomUUID()}</RequestId></Error>`;

/** Decodes an `aws-chunked` body: `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n ... 0\r\n[trailers]\r\n\r\n`. */
function decodeAwsChunked(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(body.subarray(i, eol).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/**
 * A local stand-in for an S3-compatible object store, enough for @aws-sdk/client-s3 with path-style
 * addressing: create/head bucket, PUT/GET/HEAD/DELETE object. Requests must carry a SigV4
 * Authorization header naming our access key (the signature itself is not recomputed).
 */
export async function startS3Standin(opts: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {}): Promise<S3Standin> {
  const bucket = opts.bucket ?? 'cards';
  const accessKeyId = opts.accessKeyId ?? 'standin-key';
  const secretAccessKey = opts.secretAccessKey ?? 'standin-secret';
  const buckets = new Map<string, Map<string, StoredObject>>([[bucket, new Map()]]);
  const log: string[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const [, b = '', ...rest] = url.pathname.split('/');
      const bucketName = decodeURIComponent(b);
      const key = rest.map(decodeURIComponent).join('/');
      const method = req.method ?? 'GET';
      log.push(`${method} /${bucketName}${key ? `/${key}` : ''}`);
      const send = (status: number, body = '', headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'x-amz-request-id': crypto.randomBytes(8).toString('hex'), ...headers });
        res.end(method === 'HEAD' ? undefined : body);
      };

      const auth = String(req.headers.authorization ?? '');
      if (!auth.startsWith('AWS4-HMAC-SHA256 ') || !auth.includes(`Credential=${accessKeyId}/`)) {
        return send(403, xml('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', url.pathname), {
          'content-type': 'application/xml',
        });
      }
      const objects = buckets.get(bucketName);
      if (!key) {
        if (method === 'PUT') {
          if (!objects) buckets.set(bucketName, new Map());
          return send(200);
        }
        if (method === 'HEAD' || method === 'GET') {
          return objects ? send(200, '', { 'x-amz-bucket-region': 'us-east-1' }) : send(404, xml('NoSuchBucket', 'The specified bucket does not exist', url.pathname), { 'content-type': 'application/xml' });
        }
        return send(405, xml('MethodNotAllowed', 'Not supported by the stand-in', url.pathname), { 'content-type': 'application/xml' });
      }
      if (!objects) return send(404, xml('NoSuchBucket', 'The specified bucket does not exist', url.pathname), { 'content-type': 'application/xml' });

      if (method === 'PUT') {
        let data: Buffer = Buffer.concat(chunks);
        const sha = String(req.headers['x-amz-content-sha256'] ?? '');
        if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked') || sha.startsWith('STREAMING-')) data = decodeAwsChunked(data);
        const etag = `"${crypto.createHash('md5').update(data).digest('hex')}"`;
        objects.set(key, { data, contentType: String(req.headers['content-type'] ?? 'application/octet-stream'), etag, lastModified: new Date() });
        return send(200, '', { etag });
      }
      const obj = objects.get(key);
      if (method === 'GET' || method === 'HEAD') {
        if (!obj) return send(404, xml('NoSuchKey', 'The specified key does not exist.', url.pathname), { 'content-type': 'application/xml' });
        res.writeHead(200, {
          'content-type': obj.contentType,
          'content-length': String(obj.data.length),
          etag: obj.etag,
          'last-modified': obj.lastModified.toUTCString(),
          'accept-ranges': 'bytes',
        });
        return res.end(method === 'HEAD' ? undefined : obj.data);
      }
      if (method === 'DELETE') {
        objects.delete(key);
        return send(204);
      }
      return send(405, xml('MethodNotAllowed', 'Not supported by the stand-in', url.pathname), { 'content-type': 'application/xml' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    buckets,
    objects: (name = bucket) => buckets.get(name) ?? new Map(),
    log,
    env: () => ({ S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_REGION: 'us-east-1' }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
