/* global Buffer, process, setTimeout, URL */
// A closed-loop HTTP/1.1 load generator for bench/static-delivery.ts, run as a process of its own:
//   node bench/load-generator.mjs '{"url":"http://127.0.0.1:3000/x","connections":50,"seconds":10,"headers":{...}}'
// prints one JSON line: { total, requestsPerSec, p50, p99, non2xx, errors, bytes }.
// Each connection keeps one request in flight (no pipelining), as autocannon does with its defaults.
// Why not autocannon here (decision 38-05): autocannon appends every answer's body to a JavaScript
// string (its pipelined-requests queue does `body += data`), so for a 10 KB answer the generator,
// not the server, was the bottleneck. This one reads the head (status, Content-Length or chunked)
// and counts the body's bytes without converting them. Latency: from writing a request to the
// answer's last byte, in a histogram of 10 µs buckets (p50/p99 in ms, like autocannon's).
import net from 'node:net';

const opts = JSON.parse(process.argv[2]);
const url = new URL(opts.url);
const connections = opts.connections ?? 50;
const seconds = opts.seconds ?? 10;
const headerLines = Object.entries({ host: url.host, ...(opts.headers ?? {}) }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
const REQUEST = Buffer.from(`GET ${url.pathname}${url.search} HTTP/1.1\r\n${headerLines}\r\n`, 'latin1');
const BUCKET_US = 10;
const hist = new Uint32Array(100_000); // up to 1 s; slower answers count in the last bucket
let total = 0;
let non2xx = 0;
let errors = 0;
let bytes = 0;
let running = true;
const CRLFCRLF = Buffer.from('\r\n\r\n');

function connect() {
  const sock = net.connect(Number(url.port || 80), url.hostname);
  sock.setNoDelay(true);
  let head = null; // bytes of a head not complete yet
  let bodyLeft = 0; // Content-Length bytes still to come
  let chunked = false;
  let chunkTail = Buffer.alloc(0); // chunked: bytes not parsed yet
  let inBody = false;
  let sentAt = 0n;

  const send = () => {
    sentAt = process.hrtime.bigint();
    sock.write(REQUEST);
  };
  const done = (status) => {
    const us = Number(process.hrtime.bigint() - sentAt) / 1000;
    hist[Math.min(hist.length - 1, Math.floor(us / BUCKET_US))]++;
    total++;
    if (status < 200 || status > 299) non2xx++;
    inBody = false;
    if (running) send();
    else sock.end();
  };
  let status = 0;
  /** chunked bodies: true when the last chunk and its trailer have arrived */
  const eatChunks = () => {
    for (;;) {
      if (bodyLeft > 0) {
        const n = Math.min(bodyLeft, chunkTail.length);
        chunkTail = chunkTail.subarray(n);
        bodyLeft -= n;
        if (bodyLeft > 0) return false;
      }
      const eol = chunkTail.indexOf('\r\n');
      if (eol < 0) return false;
      const line = chunkTail.subarray(0, eol).toString('latin1');
      if (line === '') {
        // the CRLF after a chunk's data
        chunkTail = chunkTail.subarray(2);
        continue;
      }
      const size = parseInt(line, 16);
      if (size === 0) {
        const end = chunkTail.indexOf(CRLFCRLF, eol);
        if (end < 0) return false;
        chunkTail = Buffer.alloc(0);
        return true;
      }
      chunkTail = chunkTail.subarray(eol + 2);
      bodyLeft = size;
    }
  };
  sock.on('data', (chunk) => {
    bytes += chunk.length;
    let data = chunk;
    while (data.length > 0) {
      if (!inBody) {
        const buf = head ? Buffer.concat([head, data]) : data;
        const end = buf.indexOf(CRLFCRLF);
        if (end < 0) {
          head = buf;
          return;
        }
        head = null;
        const text = buf.subarray(0, end).toString('latin1');
        status = Number(text.slice(9, 12));
        const cl = /\r\ncontent-length:\s*(\d+)/i.exec(text);
        chunked = !cl && /\r\ntransfer-encoding:[^\r]*chunked/i.test(text);
        bodyLeft = cl ? Number(cl[1]) : 0;
        inBody = true;
        data = buf.subarray(end + 4);
        if (chunked) chunkTail = Buffer.alloc(0);
      }
      if (chunked) {
        chunkTail = chunkTail.length ? Buffer.concat([chunkTail, data]) : data;
        data = Buffer.alloc(0);
        if (eatChunks()) done(status);
      } else {
        const n = Math.min(bodyLeft, data.length);
        bodyLeft -= n;
        data = data.subarray(n);
        if (bodyLeft === 0) done(status);
      }
    }
  });
  sock.on('connect', send);
  sock.on('error', () => {
    errors++;
    if (running) setTimeout(connect, 10);
  });
}

const percentile = (p) => {
  const want = Math.ceil((total * p) / 100);
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i];
    if (seen >= want) return Math.round(((i + 1) * BUCKET_US) / 1000);
  }
  return Math.round((hist.length * BUCKET_US) / 1000);
};

const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < connections; i++) connect();
setTimeout(() => {
  running = false;
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  // the generator's own CPU per answer: when it nears the server's, the generator is what is measured
  const generatorCpuMicrosPerRequest = Math.round((cpu.user + cpu.system) / Math.max(1, total));
  process.stdout.write(JSON.stringify({ total, requestsPerSec: Math.round(total / elapsed), p50: percentile(50), p99: percentile(99), non2xx, errors, bytes, generatorCpuMicrosPerRequest }) + '\n');
  process.exit(0);
}, seconds * 1000);
