import type { IncomingMessage } from 'node:http';

/**
 * How long a client has to read a 413 before its connection is ended. The server stops reading a
 * body over its limit at once; ending the connection at the same moment would close a socket with
 * unread bytes, which sends a reset, and a reset can drop the answer before the client reads it.
 */
const LINGER_MS = 1000;

/**
 * A body over its limit (issue 32): nothing more of it is read. The request is unpiped and paused
 * (Node then stops reading the socket: no CPU is spent on the rest, which the client may send
 * forever) and the connection ends LINGER_MS later whatever the client does.
 */
export function stopReadingBody(raw: IncomingMessage): void {
  if (raw.complete || raw.readableEnded) return;
  raw.unpipe();
  raw.removeAllListeners('data');
  raw.pause();
  const socket = raw.socket;
  // (app.inject's requests have a stand-in socket that cannot be destroyed)
  if (!socket || socket.destroyed || typeof socket.destroy !== 'function') return;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
