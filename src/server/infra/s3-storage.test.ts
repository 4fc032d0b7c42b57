import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from './s3-storage';
import { startS3Standin, type S3Standin } from '#tests/helpers/s3-standin';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { multipartBody, pngImage } from '#tests/helpers/orders';

let s3: S3Standin;
beforeAll(async () => {
  s3 = await startS3Standin();
});
afterAll(async () => {
  await s3.close();
});

const storageFor = (over: Partial<Parameters<typeof S3Storage.create>[0]> = {}) =>
  S3Storage.create({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, ...over });

describe('S3Storage against an S3-compatible store', () => {
  it('puts, gets, deletes objects with path-style addressing and keeps the content type', async () => {
    const st = await storageFor();
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 13, 10]);
    await st.put('uploads/2026/abcdefabcdefabcdef.png', bytes, 'image/png');
    expect(s3.log).toContain(`PUT /${s3.bucket}/uploads/2026/abcdefabcdefabcdef.png`);
    expect(s3.objects().get('uploads/2026/abcdefabcdefabcdef.png')?.data.equals(bytes)).toBe(true);
    const back = await st.get('uploads/2026/abcdefabcdefabcdef.png');
    expect(back?.data.equals(bytes)).toBe(true);
    expect(back?.contentType).toBe('image/png');
    await st.delete('uploads/2026/abcdefabcdefabcdef.png');
    expect(await st.get('uploads/2026/abcdefabcdefabcdef.png')).toBeNull();
    await st.delete('uploads/2026/never-there.png'); // deleting a missing key is not an error
    await st.check();
    st.close();
  });

  it('refuses unsafe keys before any request', async () => {
    const st = await storageFor();
    const before = s3.log.length;
    await expect(st.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe storage key/);
    await expect(st.get('a//b')).rejects.toThrow(/unsafe storage key/);
    expect(s3.log.length).toBe(before);
    st.close();
  });

  it('fails its check with a missing bucket or wrong credentials', async () => {
    const noBucket = await storageFor({ bucket: 'nope' });
    await expect(noBucket.check()).rejects.toBeTruthy();
    const badKey = await storageFor({ accessKeyId: 'wrong' });
    await expect(badKey.put('uploads/x.png', Buffer.from('x'), 'image/png')).rejects.toBeTruthy();
    noBucket.close();
    badKey.close();
  });
});

describe('the app with S3_ENDPOINT and S3_BUCKET set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: s3.env() });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores uploads in the object store, not on disk, and serves them back', async () => {
    expect(t.app.ctx.storage.kind).toBe('s3');
    const { agent } = await signedInAgent(t.app);
    const body = multipartBody('profileImage', { name: 'me.png', type: 'image/png', data: await pngImage(120, 90) });
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.inject({ method: 'POST', url: '/api/upload/profile-image', payload: body.payload, headers: { ...body.headers, cookie } });
    expect(res.statusCode).toBe(201);
    const url = res.json().url as string;
    const key = url.replace(/^\/files\//, '');
    expect(s3.objects().has(key)).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, 'files', key))).toBe(false);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\//);
    expect(served.rawPayload.equals(s3.objects().get(key)!.data)).toBe(true);
  });
});
