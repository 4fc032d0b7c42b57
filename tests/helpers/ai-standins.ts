import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * Local stand-ins (127.0.0.1) for the two outside services of the design assistant:
 * - an OpenAI-compatible chat API: POST {base}/chat/completions with a Bearer key, answering
 *   chat.completion objects; the reply content and faults (HTTP error, delay, bad JSON) are set
 *   per test;
 * - PhotoRoom's segment API: POST /v1/segment, multipart `image_file`, `x-api-key` header,
 *   answering a PNG (here: the input with its left half made transparent, so a test can tell it
 *   apart from the local algorithm) or an error JSON.
 * Every request is recorded.
 */

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface ChatRequestRecord {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string };
  };
}

export type ChatBehaviour =
  | { kind: 'reply'; content: string | ((req: ChatRequestRecord) => string) }
  | { kind: 'http'; status: number; body?: unknown }
  | { kind: 'delay'; ms: number; content: string };

export interface ChatStandin {
  /** base URL to use as AI_BASE_URL (ends in /v1) */
  baseUrl: string;
  apiKey: string;
  requests: ChatRequestRecord[];
  behaviour: ChatBehaviour;
  close(): Promise<void>;
}

export async function startChatStandin(apiKey = 'sk-test-standin'): Promise<ChatStandin> {
  const state: ChatStandin = {
    baseUrl: '',
    apiKey,
    requests: [],
    behaviour: { kind: 'reply', content: '{}' },
    close: async () => closeServer(server),
  };
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const send = (status: number, body: unknown) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    let body: ChatRequestRecord['body'];
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return send(400, { error: { message: 'Invalid JSON body', type: 'invalid_request_error' } });
    }
    const record: ChatRequestRecord = { path: req.url, authorization: req.headers.authorization, body };
    state.requests.push(record);
    const b = state.behaviour;
    const completion = (content: string) => ({
      id: `chatcmpl-${state.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
    if (b.kind === 'http') return send(b.status, b.body ?? { error: { message: 'The server had an error', type: 'server_error' } });
    if (b.kind === 'delay') {
      const t = setTimeout(() => {
        timers.delete(t);
        send(200, completion(b.content));
      }, b.ms);
      timers.add(t);
      return;
    }
    send(200, completion(typeof b.content === 'function' ? b.content(record) : b.content));
  });
  state.baseUrl = `${await listen(server)}/v1`;
  state.close = async () => {
    for (const t of timers) clearTimeout(t);
    await closeServer(server);
  };
  return state;
}

export interface PhotoroomRequestRecord {
  apiKey: string | undefined;
  fields: Record<string, string>;
  image: Buffer | null;
  imageType: string | null;
}

export interface PhotoroomStandin {
  /** full endpoint URL to use as PHOTOROOM_API_URL */
  url: string;
  apiKey: string;
  requests: PhotoroomRequestRecord[];
  /** null: answer the cut-out; otherwise answer this HTTP error */
  fault: { status: number; detail: string } | null;
  close(): Promise<void>;
}

export async function startPhotoroomStandin(apiKey = 'pr-test-standin'): Promise<PhotoroomStandin> {
  const state: PhotoroomStandin = { url: '', apiKey, requests: [], fault: null, close: async () => closeServer(server) };
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const sendJson = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/segment') return sendJson(404, { detail: 'Not Found' });
    const key = req.headers['x-api-key'] as string | undefined;
    if (key !== apiKey) return sendJson(403, { detail: 'Invalid API key', status_code: 403, type: 'forbidden' });
    // parse the multipart body with the platform's own parser
    let form: FormData;
    try {
      form = await new Request('http://standin/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type'] ?? '') }, body: new Uint8Array(raw) }).formData();
    } catch {
      return sendJson(400, { detail: 'Malformed multipart body', status_code: 400, type: 'bad_request' });
    }
    const fields: Record<string, string> = {};
    let image: Buffer | null = null;
    let imageType: string | null = null;
    for (const [k, v] of form.entries()) {
      if (typeof v === 'string') fields[k] = v;
      else if (k === 'image_file') {
        image = Buffer.from(await v.arrayBuffer());
        imageType = v.type;
      }
    }
    state.requests.push({ apiKey: key, fields, image, imageType });
    if (state.fault) return sendJson(state.fault.status, { detail: state.fault.detail, status_code: state.fault.status, type: 'error' });
    if (!image) return sendJson(400, { detail: 'image_file is required', status_code: 400, type: 'bad_request' });
    try {
      const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const half = Math.floor(info.width / 2);
      for (let y = 0; y < info.height; y++) for (let x = 0; x < half; x++) data[(y * info.width + x) * 4 + 3] = 0;
      const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).png().toBuffer();
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.end(png);
    } catch {
      sendJson(400, { detail: 'Could not read the image', status_code: 400, type: 'bad_request' });
    }
  });
  state.url = `${await listen(server)}/v1/segment`;
  return state;
}
