import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { assertSafeKey, type Storage } from './storage';

export interface S3StorageOptions {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** key prefix inside the bucket (e.g. "prod/"); empty by default */
  prefix?: string;
  /** per-request time limit in ms (default 10 s) */
  timeoutMs?: number;
}

/**
 * Files in an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Ceph, ...), so every
 * instance behind a load balancer sees the same uploads and rendered cards.
 * Path-style addressing (`endpoint/bucket/key`) works with every such store and with a plain
 * host name; checksums only when the operation requires them, since several compatible stores
 * reject the newer default trailing checksums.
 */
type Sdk = typeof import('@aws-sdk/client-s3');

export class S3Storage implements Storage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  /** The SDK (~250 ms to load) is imported only when S3 is configured. */
  static async create(opts: S3StorageOptions): Promise<S3Storage> {
    // the SDK warns on Node 20 about versions it will publish in 2027; the lockfile pins ours
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    return new S3Storage(await import('@aws-sdk/client-s3'), opts);
  }

  private constructor(
    private readonly sdk: Sdk,
    opts: S3StorageOptions,
  ) {
    const config: S3ClientConfig = {
      endpoint: opts.endpoint,
      region: opts.region,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { requestTimeout: opts.timeoutMs ?? 10_000, connectionTimeout: 3000 },
    };
    // without explicit keys the SDK's default chain applies (environment, instance or task role)
    if (opts.accessKeyId && opts.secretAccessKey) {
      config.credentials = { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey };
    }
    this.client = new sdk.S3Client(config);
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ?? '';
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return this.prefix + key;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: data, ContentType: contentType, ContentLength: data.length }),
    );
  }

  async get(key: string): Promise<{ data: Buffer; contentType?: string } | null> {
    try {
      const res = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      if (!res.Body) return null;
      const bytes = await res.Body.transformToByteArray();
      return { data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: res.ContentType };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a missing key too, like DiskStorage's rm --force
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async check(): Promise<void> {
    await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.Code === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
